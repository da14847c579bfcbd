package org.fthp.replication.creation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.fthp.coordinator.event.Role;
import org.fthp.empi.Empi;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.datatype.BaseType;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.failure.BlockingCalls;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.ops.Staged;
import org.fthp.replication.ops.Transfer;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.routing.Membership;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommIds;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.NativeComms;
import org.fthp.replication.structure.PortName;
import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.twins.TwinChannel;
import org.fthp.replication.twins.TwinSlots;

/**
 * Builds the structures of communicators from logical membership (COMM_WORLD
 * ranks), so the same code can rebuild them over a different set of native
 * processes after a failure.
 *
 * <p>Each side of a communicator (its computational copies, its replicas) is
 * made with {@code MPI_Comm_create_group} by that side's processes only.
 * Only COMM_WORLD gets an eworld and a twin communicator of its own, made over
 * both sides; every other communicator's twins exchange their decisions over
 * COMM_WORLD's (TwinChannel), so a program's communicator creation is one
 * sided: a death inside it wedges the copies of one side, and the ranks live
 * on in the other (docs/DESIGN.md §5 names six communicators per user communicator;
 * this is the deliberate exception). What the members must agree on first
 * (split colours, the remote group of a new intercommunicator) is exchanged
 * with the facade's own collectives, so replicas take it from their twins.
 *
 * <p>Communicator creation in MPI 3.1 has no nonblocking form except dup:
 * these native calls block. Before each one the processes involved say they
 * are about to enter, inside a repair (Repair) or while the program creates a
 * communicator (CommCreation), so a failure before it abandons the attempt.
 */
public final class StructureBuilder {

    private static final TypeLayout INTS = TypeLayout.primitive(BaseType.INT);

    private final Membership membership;
    private final OpContext ops;
    private final MessageRecords records;
    private final BlockingCalls blockingCalls;
    private final DutyCycle duty;
    private final CommCreation creation;
    /** The twin slices of the live communicators (TwinChannel). */
    private final TwinSlots twinSlots;
    /** This process's twin channel on the current COMM_WORLD structure, slot 0; null without a twin. */
    private TwinChannel worldTwin;
    /**
     * Before each blocking native call: the repair's round during {@link #rebuild}, a rollback generation's entry
     * during its first {@link #world(int, BlockingCallEntry)}.
     */
    private BlockingCallEntry blockingEntry = BlockingCallEntry.NONE;

    public StructureBuilder(Membership membership, OpContext ops, MessageRecords records, BlockingCalls blockingCalls,
                            DutyCycle duty, CommCreation creation, int twinSlots, boolean nativeWorldHasSpares,
                            ControlComm control) {
        this.membership = membership;
        this.nativeWorldHasSpares = nativeWorldHasSpares;
        this.control = control;
        this.ops = ops;
        this.records = records;
        this.blockingCalls = blockingCalls;
        this.duty = duty;
        this.creation = creation;
        this.twinSlots = new TwinSlots(twinSlots);
    }

    // ---- the native communicators of one structure ----

    /**
     * The structure of an intracommunicator of the given COMM_WORLD ranks (in
     * rank order), or null when this process holds no copy of one of them.
     */
    public CommStructure intra(int id, int[] members) {
        int slot = indexOf(members, membership.logicalRank()) < 0 ? -1 : takeTwinSlot();
        return withSlot(slot, () -> creation.attempt(() -> intra(null, id, members, slot)));
    }

    private CommStructure intra(CommStructure predecessor, int id, int[] members, int twinSlot) {
        int self = indexOf(members, membership.logicalRank());
        if (self < 0) {
            return null;
        }
        ReplicaLayout layout = memberLayout(members);
        NativeComms natives = natives(id, members, layout, self, -1, twinSlot);
        return new CommStructure(predecessor, id, self, members, null, membership.role(), layout, self, 0, natives);
    }

    /**
     * COMM_SELF's structure: like any communicator of one member when this
     * rank has a replica (its twin must follow its decisions), otherwise on
     * the native COMM_SELF.
     */
    public CommStructure self(int id) {
        int me = membership.logicalRank();
        return membership.layout().hasReplica(me) ? intra(id, new int[] {me}) : unreplicatedSelf(null);
    }

    private CommStructure unreplicatedSelf(CommStructure predecessor) {
        return new CommStructure(predecessor, CommIds.SELF, 0, new int[] {membership.logicalRank()}, null, Role.CMP,
                ReplicaLayout.ofMembers(new boolean[1]), 0, 0,
                NativeComms.unreplicated(Empi.COMM_SELF, idup(Empi.COMM_SELF), Empi.COMM_SELF,
                        new int[] {membership.nativeRank()}));
    }

    /**
     * COMM_WORLD's structure: at start its eworld is the native COMM_WORLD
     * (launch layout order); after a repair it is made over the survivors.
     */
    public CommStructure world(int id) {
        return world(null, id);
    }

    /** As {@link #world(int)}, with {@code entry} before each of its blocking native calls. */
    public CommStructure world(int id, BlockingCallEntry entry) {
        return withEntry(entry, () -> world(null, id));
    }

    private CommStructure world(CommStructure predecessor, int id) {
        int n = membership.layout().size();
        int[] members = new int[n];
        for (int i = 0; i < n; i++) {
            members[i] = i;
        }
        int self = membership.logicalRank();
        ReplicaLayout layout = memberLayout(members);
        NativeComms natives = natives(id, members, layout, self, -1, predecessor == null ? INITIAL_WORLD : 0);
        return new CommStructure(predecessor, id, self, members, null, membership.role(), layout, self, 0, natives);
    }

    /**
     * The same communicator over the native processes of the current
     * (repaired) layout: same members, same numbering carried over.
     */
    public CommStructure rebuild(CommStructure old, BlockingCallEntry round) {
        return withEntry(round, () -> rebuild(old));
    }

    /** Builds with {@code entry} before each blocking native call, and none after. */
    private CommStructure withEntry(BlockingCallEntry entry, Supplier<CommStructure> build) {
        blockingEntry = entry;
        try {
            return build.get();
        } finally {
            blockingEntry = BlockingCallEntry.NONE;
        }
    }

    private CommStructure rebuild(CommStructure old) {
        CommStructure next;
        int slot = old.natives().twin() == null ? -1 : old.natives().twin().slot();
        if (old.commId() == CommIds.WORLD) {
            next = world(old, old.commId());
        } else if (old.isInter()) {
            next = inter(old, old.commId(), old.worldRanks(), old.remoteWorldRanks(), old.rank(), slot);
        } else if (old.commId() == CommIds.SELF && !membership.layout().hasReplica(membership.logicalRank())) {
            next = unreplicatedSelf(old);
        } else {
            next = intra(old, old.commId(), old.worldRanks(), slot);
        }
        old.replacedBy(next);
        return next;
    }

    /**
     * An intercommunicator: point-to-point traffic runs in the member space of
     * both groups (the group holding the lower COMM_WORLD rank first);
     * collectives run on a native intercommunicator between the two groups'
     * computational copies.
     */
    public CommStructure inter(int id, int[] localWorld, int[] remoteWorld, int localRank) {
        int slot = takeTwinSlot();
        return withSlot(slot, () -> creation.attempt(() -> inter(null, id, localWorld, remoteWorld, localRank,
                slot)));
    }

    private CommStructure inter(CommStructure predecessor, int id, int[] localWorld, int[] remoteWorld,
                                       int localRank, int twinSlot) {
        boolean localFirst = Arrays.stream(localWorld).min().getAsInt() < Arrays.stream(remoteWorld).min().getAsInt();
        int[] first = localFirst ? localWorld : remoteWorld;
        int[] second = localFirst ? remoteWorld : localWorld;
        int[] members = new int[first.length + second.length];
        System.arraycopy(first, 0, members, 0, first.length);
        System.arraycopy(second, 0, members, first.length, second.length);
        int self = (localFirst ? 0 : first.length) + localRank;
        ReplicaLayout layout = memberLayout(members);
        NativeComms natives = natives(id, members, layout, self, first.length, twinSlot);
        return new CommStructure(predecessor, id, localRank, localWorld, remoteWorld, membership.role(), layout, self,
                localFirst ? first.length : 0, natives);
    }

    private ReplicaLayout memberLayout(int[] members) {
        ReplicaLayout world = membership.layout();
        boolean[] replicated = new boolean[members.length];
        for (int i = 0; i < members.length; i++) {
            replicated[i] = world.hasReplica(members[i]);
        }
        return ReplicaLayout.ofMembers(replicated);
    }

    /** {@code twinSlot} of COMM_WORLD's first structure, whose eworld is the native COMM_WORLD. */
    private static final int INITIAL_WORLD = -2;

    /**
     * Whether the native COMM_WORLD also holds spares (fthp-run --spares): then the first eworld is a group of the
     * program's processes, which are the native ranks before the spares, so it numbers them as COMM_WORLD would.
     */
    private final boolean nativeWorldHasSpares;

    /** The control communicator of this engine's generation (ControlComm.NONE without replicas). */
    private final ControlComm control;

    /** The first COMM_WORLD's eworld: the native COMM_WORLD itself unless spares are in it too. */
    private long initialEworld(int[] copies, int id) {
        if (!nativeWorldHasSpares) {
            return Empi.COMM_WORLD;
        }
        // a rollback generation's control communicator was made over these very copies in this order: a duplicate
        // of it is nonblocking, and saves a blocking creation among every copy and the round before it
        return control.spans(copies) ? idup(control.handle()) : createGroup(Empi.COMM_WORLD, copies, id);
    }

    /**
     * Takes a twin slot for a communicator about to be made; -1 when this
     * process has no twin (a computational copy without a replica, or a
     * replica promoted after its twin died): it forwards and awaits nothing.
     */
    private int takeTwinSlot() {
        if (worldTwin == null) {
            return -1;
        }
        try {
            return twinSlots.take();
        } catch (IllegalStateException e) {
            throw new MpiError(MpiError.ERR_INTERN, e.getMessage());
        }
    }

    /** Runs a creation that holds {@code slot}; gives the slot back unless a communicator came of it. */
    private CommStructure withSlot(int slot, java.util.function.Supplier<CommStructure> creation) {
        CommStructure made = null;
        try {
            made = creation.get();
            return made;
        } finally {
            if (made == null) {
                twinSlots.release(slot);
            }
        }
    }

    /**
     * Creates the native communicators of a member space.
     *
     * @param firstGroup for an intercommunicator, the size of the first group; -1 for an intracommunicator
     * @param twinSlot   the communicator's twin slot (-1: none); 0 or {@link #INITIAL_WORLD} for COMM_WORLD,
     *                   which makes the eworld and the twin communicator the others' twins share
     */
    private NativeComms natives(int id, int[] members, ReplicaLayout layout, int self, int firstGroup,
                                       int twinSlot) {
        ReplicaLayout world = membership.layout();
        Role role = membership.role();
        boolean isWorld = twinSlot == 0 || twinSlot == INITIAL_WORLD;
        int n = members.length;
        int[] copies = new int[n + layout.replicas()];
        for (int i = 0, k = n; i < n; i++) {
            copies[i] = world.cmpNative(members[i]);
            if (layout.hasReplica(i)) {
                copies[k++] = world.repNative(members[i]);
            }
        }
        if (creation.active()) {
            creation.members(copies);
            if (layout.replicas() > 0) {
                // every copy of every member enters the attempt before any says DONE: the calls below are one
                // sided, and a side that finished while the other had not yet reached this creation would wait
                // for its DONE while the other, given a failure, waits for it in a repair
                creation.ready(copies);
            }
        }
        if (layout.replicas() == 0) {
            long eworld = twinSlot == INITIAL_WORLD ? initialEworld(copies, id)
                    : createGroup(Empi.COMM_WORLD, copies, id);
            if (isWorld) {
                worldTwin = null;
            }
            return NativeComms.unreplicated(eworld, idup(eworld), collectiveOf(eworld, self, firstGroup, copies),
                    copies);
        }
        // each side, and the computational copies without a replica, made by their own processes only: the
        // other side neither takes part nor waits
        int[] cmpCopies = Arrays.copyOf(copies, n);
        int[] repCopies = Arrays.copyOfRange(copies, n, copies.length);
        long side = createGroup(Empi.COMM_WORLD, role == Role.CMP ? cmpCopies : repCopies, id);
        long cmpNoRep = 0;
        if (role == Role.CMP && !layout.hasReplica(self)) {
            int[] unreplicated = new int[n - layout.replicas()];
            for (int i = 0, k = 0; i < n; i++) {
                if (!layout.hasReplica(i)) {
                    unreplicated[k++] = cmpCopies[i];
                }
            }
            cmpNoRep = createGroup(Empi.COMM_WORLD, unreplicated, id);
        }
        long noRepToRep = 0;
        boolean someUnreplicated = layout.replicas() < n;
        if (someUnreplicated && (role == Role.REP || !layout.hasReplica(self))) {
            // the computational copies without a replica and every replica, one process per member in member order
            // (so its rank is the member's): a group creation rather than an intercommunicator between the two
            // sets, whose blocking call would take many more rounds. Made before COMM_WORLD's eworld, which takes
            // every copy: the replicated ranks' computational copies, which have no part in this one, wait for it
            // in the eworld's entry with their cores given away, rather than run ahead into the program and take
            // the cores this creation's members need
            int[] involved = new int[n];
            for (int i = 0; i < n; i++) {
                involved[i] = layout.hasReplica(i) ? world.repNative(members[i]) : world.cmpNative(members[i]);
            }
            noRepToRep = createGroup(Empi.COMM_WORLD, involved, id);
        }
        long eworld = 0;
        boolean eworldDuplicated = isWorld && twinSlot == INITIAL_WORLD && nativeWorldHasSpares
                && control.spans(copies);
        if (isWorld && !eworldDuplicated) {
            eworld = twinSlot == INITIAL_WORLD ? initialEworld(copies, id) : createGroup(Empi.COMM_WORLD, copies, id);
        }
        // every blocking creation is done: the duplicates run at once, each member waiting for all of them in one
        // wait rather than for each in turn (on the same communicator they are started in the same order by all)
        Dups dups = new Dups();
        int sideInternal = dups.start(side);
        int noRepToRepInternal = noRepToRep != 0 ? dups.start(noRepToRep) : -1;
        int eworldDup = -1;
        int cmpRepDup = -1;
        if (isWorld) {
            // the generation's eworld a duplicate of its control communicator (same copies, same order), and the
            // twins' channel another: nonblocking, so a wait for a late member happens in the duty cycle rather
            // than spinning in a native call (an intercommunicator between the sides would be one more blocking
            // call)
            eworldDup = eworldDuplicated ? dups.start(control.handle()) : -1;
            cmpRepDup = dups.start(eworldDuplicated ? control.handle() : eworld);
        }
        dups.await();
        if (eworldDuplicated) {
            eworld = dups.handle(eworldDup);
        }
        long cmpRep = 0;
        TwinChannel twin;
        if (isWorld) {
            cmpRep = dups.handle(cmpRepDup);
            twin = TwinChannel.ofWorld(cmpRep, layout, self, role);
            worldTwin = twin;
        } else {
            // a repair rebuilds COMM_WORLD first (the first live communicator): this is the new one's channel,
            // null on a replica promoted since the slot was taken
            twin = twinSlot > 0 && worldTwin != null ? worldTwin.withSlot(twinSlot) : null;
        }
        long sideDup = dups.handle(sideInternal);
        long noRepToRepDup = noRepToRepInternal < 0 ? 0 : dups.handle(noRepToRepInternal);
        return role == Role.CMP
                ? new NativeComms(eworld, side, sideDup, 0, 0, cmpRep, cmpNoRep, noRepToRep,
                        noRepToRepDup, collectiveOf(side, self, firstGroup, cmpCopies), twin, copies)
                : new NativeComms(eworld, 0, 0, side, sideDup, cmpRep, 0, noRepToRep, noRepToRepDup, 0,
                        twin, copies);
    }

    /**
     * Where the computational copies run collectives: their own communicator,
     * or for an intercommunicator a native intercommunicator between the two
     * groups' computational copies.
     */
    private long collectiveOf(long cmp, int self, int firstGroup, int[] cmpNatives) {
        if (firstGroup < 0) {
            return cmp;
        }
        int color = self < firstGroup ? 0 : 1;
        long group = split(cmp, color, self, cmpNatives);
        long inter = intercomm(group, cmp, color == 0 ? firstGroup : 0, InternalTags.INTERCOMM_COLLECTIVE.first(),
                cmpNatives);
        free(group);
        return inter;
    }

    /**
     * Before a native call that cannot be abandoned: the processes {@code involved} say they are about to enter,
     * in a repair's round or the program's creation's (CommCreation), so that the wait for a late one happens
     * where a failure can still abandon the attempt rather than inside the call.
     */
    private void beforeBlockingCall(int[] involved) {
        if (creation.active()) {
            creation.ready(involved);
        } else {
            blockingEntry.beforeBlockingCall(involved);
        }
    }

    private long createGroup(long parent, int[] nativeRanks, int id) {
        beforeBlockingCall(nativeRanks);
        return createGroupBlocking(parent, nativeRanks, InternalTags.COMM_GROUPS.tag(id), blockingCalls);
    }

    /**
     * MPI_Comm_create_group of {@code nativeRanks} (ranks of {@code parent}) under {@code tag}, with errors
     * returned: blocks until all of them are in it; a death inside it is the wedge {@code blockingCalls} ends.
     */
    static long createGroupBlocking(long parent, int[] nativeRanks, int tag, BlockingCalls blockingCalls) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment groupOut = Empi.allocateHandles(a, 1);
            Empi.commGroup(parent, groupOut);
            long parentGroup = Empi.getHandle(groupOut, 0);
            MemorySegment ranks = a.allocateFrom(ValueLayout.JAVA_INT, nativeRanks);
            Empi.groupIncl(parentGroup, nativeRanks.length, ranks, groupOut);
            long group = Empi.getHandle(groupOut, 0);
            MemorySegment commOut = Empi.allocateHandles(a, 1);
            blockingCalls.enter("MPI_Comm_create_group", nativeRanks);
            try {
                Empi.commCreateGroup(parent, group, tag, commOut);
            } finally {
                blockingCalls.exit();
            }
            long comm = Empi.getHandle(commOut, 0);
            freeGroup(a, group);
            freeGroup(a, parentGroup);
            Empi.commSetErrhandler(comm, Empi.ERRORS_RETURN);
            return comm;
        }
    }

    /** MPI_Comm_split; 0 for a process that is in no part. {@code involved}: the members' native ranks. */
    private long split(long comm, int color, int key, int[] involved) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = Empi.allocateHandles(a, 1);
            beforeBlockingCall(involved);
            blockingCalls.enter("MPI_Comm_split", involved);
            try {
                Empi.commSplit(comm, color, key, out);
            } finally {
                blockingCalls.exit();
            }
            long part = Empi.getHandle(out, 0);
            if (part == Empi.COMM_NULL) {
                return 0;
            }
            Empi.commSetErrhandler(part, Empi.ERRORS_RETURN);
            return part;
        }
    }

    /**
     * An intercommunicator from {@code local} (leader: its rank 0) to the group led by {@code remoteLeader} of
     * {@code peer}; {@code involved}: the native ranks of both groups.
     */
    private long intercomm(long local, long peer, int remoteLeader, int tag, int[] involved) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = Empi.allocateHandles(a, 1);
            beforeBlockingCall(involved);
            blockingCalls.enter("MPI_Intercomm_create", involved);
            try {
                Empi.intercommCreate(local, 0, peer, remoteLeader, tag, out);
            } finally {
                blockingCalls.exit();
            }
            long comm = Empi.getHandle(out, 0);
            Empi.commSetErrhandler(comm, Empi.ERRORS_RETURN);
            return comm;
        }
    }

    /** MPI_Comm_dup, at start-up only (every process is alive and inside MPI_Init). */
    public static long dupBlocking(long comm) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = Empi.allocateHandles(a, 1);
            Empi.commDup(comm, out);
            long copy = Empi.getHandle(out, 0);
            Empi.commSetErrhandler(copy, Empi.ERRORS_RETURN);
            return copy;
        }
    }

    /**
     * MPI_Comm_idup, one or several under way together, awaited in one wait, each handle with errors returned. A failure
     * that abandons the wait abandons every one of them.
     */
    private final class Dups {

        private final List<CollectiveOp> started = new ArrayList<>(4);
        private final List<Long> handles = new ArrayList<>(4);

        /** Starts a duplicate of {@code comm}; returns its index. */
        int start(long comm) {
            CollectiveOp op = new CollectiveOp(ops);
            // the handle lands in the operation's own staging: a rollback may abandon the operation unfinished
            Staged out = op.stage(Empi.HANDLE_BYTES);
            int index = started.size();
            started.add(op);
            handles.add(0L);
            op.start(req -> Empi.commIdup(comm, out.seg(), req),
                    () -> handles.set(index, Empi.getHandle(out.seg(), 0)));
            return index;
        }

        void await() {
            if (started.isEmpty()) {
                return;
            }
            try {
                duty.awaitAll(started.toArray(BooleanSupplier[]::new));
            } catch (RuntimeException e) {
                // a failure abandoned the communicator being created (CommCreation)
                started.forEach(CollectiveOp::abandon);
                throw e;
            }
            for (long handle : handles) {
                Empi.commSetErrhandler(handle, Empi.ERRORS_RETURN);
            }
        }

        long handle(int index) {
            return handles.get(index);
        }
    }

    /** MPI_Comm_idup progressed by test loops, with errors returned. */
    public long idup(long comm) {
        Dups dup = new Dups();
        int index = dup.start(comm);
        dup.await();
        return dup.handle(index);
    }

    // ---- what the members agree on first ----

    /**
     * Every member's ints, gathered in rank order (from the remote group, on an
     * intercommunicator); replicas take the result from their twins.
     */
    public int[] allGatherInts(CommStructure given, int... mine) {
        // a repair during an earlier step of a creation replaced the structure the caller holds
        CommStructure s = given.current();
        int peers = s.isInter() ? s.remoteSize() : s.size();
        CollectiveOp op = new CollectiveOp(ops);
        int bytes = 4 * mine.length;
        Staged send = op.stage(bytes);
        Staged recv = op.stage((long) bytes * peers);
        MemorySegment.copy(mine, 0, send.seg(), ValueLayout.JAVA_INT, 0, mine.length);
        int[] all = new int[mine.length * peers];
        op.start(s, recv, (cmp, req) -> Empi.iallgather(send.seg(), bytes, Empi.BYTE, recv.seg(), bytes, Empi.BYTE,
                cmp, req),
                () -> MemorySegment.copy(recv.seg(), ValueLayout.JAVA_INT, 0, all, 0, all.length));
        duty.await(op);
        return all;
    }

    // ---- derived communicators ----

    public CommStructure dup(CommStructure parent) {
        int id = parent.nextChildId();
        if (parent.isInter()) {
            return inter(id, parent.worldRanks(), parent.remoteWorldRanks(), parent.rank());
        }
        return intra(id, parent.worldRanks());
    }

    public CommStructure split(CommStructure parent, int color, int key) {
        int id = parent.nextChildId();
        int[] all = allGatherInts(parent, color, key);
        if (color == Empi.UNDEFINED) {
            return null;
        }
        Integer[] members = java.util.stream.IntStream.range(0, parent.size())
                .filter(r -> all[2 * r] == color).boxed().toArray(Integer[]::new);
        Arrays.sort(members, (x, y) -> all[2 * x + 1] != all[2 * y + 1]
                ? Integer.compare(all[2 * x + 1], all[2 * y + 1]) : Integer.compare(x, y));
        int[] parentRanks = Arrays.stream(members).mapToInt(Integer::intValue).toArray();
        return fromMembers(parent, parentRanks, id ^ (color * 0x9E3779B9));
    }

    /** The communicator of the given parent ranks (in new rank order); null if this process is not one. */
    public CommStructure fromMembers(CommStructure parent, int[] parentRanks, int id) {
        int[] parentWorld = parent.worldRanks();
        int[] world = new int[parentRanks.length];
        for (int i = 0; i < parentRanks.length; i++) {
            world[i] = parentWorld[parentRanks[i]];
        }
        return intra(id & 0x7fffffff, world);
    }

    /** Parent ranks, in group order, of the members of {@code worldRanks}; error if one is not in the parent. */
    public int[] parentRanksOf(CommStructure parent, int[] worldRanks) {
        int[] parentWorld = parent.worldRanks();
        int[] out = new int[worldRanks.length];
        for (int i = 0; i < worldRanks.length; i++) {
            int found = indexOf(parentWorld, worldRanks[i]);
            if (found < 0) {
                throw new MpiError(MpiError.ERR_GROUP, "group member " + worldRanks[i] + " is not in the communicator");
            }
            out[i] = found;
        }
        return out;
    }

    public static int hashId(int seed, int[] a, int[] b) {
        int h = seed * 0x9E3779B9;
        for (int v : a) {
            h = h * 31 + v;
        }
        if (b != null) {
            for (int v : b) {
                h = h * 37 + v;
            }
        }
        h &= 0x7fffffff;
        return h < 16 ? h + 16 : h;
    }

    /**
     * MPI_Intercomm_create: the leaders swap their groups' members over the
     * peer communicator (the facade's own messages, routed to every copy),
     * each leader broadcasts the remote group in its local communicator.
     */
    public CommStructure intercomm(CommStructure local, int localLeader, CommStructure peer, int remoteLeader,
                                   int tag) {
        int[] localWorld = local.worldRanks();
        int[] remoteWorld = null;
        if (local.rank() == localLeader) {
            int leaderTag = InternalTags.INTERCOMM_LEADERS.tag(tag);
            int[] size = exchange(peer, remoteLeader, leaderTag, new int[] {localWorld.length}, 1);
            remoteWorld = exchange(peer, remoteLeader, leaderTag, localWorld, size[0]);
        }
        int[] count = {remoteWorld == null ? 0 : remoteWorld.length};
        bcastInts(local, count, localLeader);
        if (remoteWorld == null) {
            remoteWorld = new int[count[0]];
        }
        bcastInts(local, remoteWorld, localLeader);
        int[] lo = localWorld.clone();
        int[] hi = remoteWorld.clone();
        Arrays.sort(lo);
        Arrays.sort(hi);
        int id = lo[0] < hi[0] ? hashId(tag, lo, hi) : hashId(tag, hi, lo);
        return inter(id, localWorld, remoteWorld, local.rank());
    }

    /**
     * MPI_Comm_accept between processes of this job: the root of
     * {@code local} takes a connect request for its port from any source on
     * COMM_WORLD's internal channel (a twin-decided wildcard, so replicas take
     * the same one), swaps group members with the connecting root and
     * broadcasts them in {@code local}; then both groups build the
     * intercommunicator as MPI_Intercomm_create does, and a repair rebuilds it
     * like any other.
     *
     * @param port at the root, the port (opened by this process), or null if
     *             the program's port is not one: every member then returns null
     *             (and the facade raises the error) rather than wait; ignored elsewhere
     * @return the intercommunicator, or null if the root had no usable port
     */
    public CommStructure accept(CommStructure local, int root, CommStructure world, PortName port) {
        int[] remoteWorld = null;
        int seed = 0;
        if (local.rank() == root && port != null) {
            int[] request = receiveFromAny(world, InternalTags.PORT_REQUEST.tag(port.serial()), 1);
            remoteWorld = swapGroups(world, request[0], InternalTags.PORT_REPLY.tag(port.serial()), local.worldRanks());
            seed = portSeed(port);
        }
        return portIntercomm(local, root, remoteWorld, seed);
    }

    /**
     * MPI_Comm_connect to a port of this job: the root sends a request to the
     * port's owner (the accepting root), then as {@link #accept}.
     *
     * @param port at the root, the port, or null if the program's is not one (as for accept)
     * @return the intercommunicator, or null if the root had no usable port
     */
    public CommStructure connect(CommStructure local, int root, CommStructure world, PortName port) {
        int[] remoteWorld = null;
        int seed = 0;
        if (local.rank() == root && port != null) {
            int me = world.current().rank();
            NativeOp[] sends = SendOp.post(ops, records, new Transfer().on(world.current(), Channel.INTERNAL)
                    .data(UserBuffer.of(new int[] {me}), UserBuffer.START, 1, INTS)
                    .peer(port.worldRank(), InternalTags.PORT_REQUEST.tag(port.serial())));
            duty.awaitAll(sends);
            remoteWorld = swapGroups(world, port.worldRank(), InternalTags.PORT_REPLY.tag(port.serial()),
                    local.worldRanks());
            seed = portSeed(port);
        }
        return portIntercomm(local, root, remoteWorld, seed);
    }

    private static int portSeed(PortName port) {
        return 0x504f5254 ^ (port.worldRank() * 0x9E3779B9) ^ port.serial();
    }

    /** The roots swap their groups' sizes, then their members. */
    private int[] swapGroups(CommStructure world, int otherRoot, int tag, int[] localWorld) {
        int[] size = exchange(world, otherRoot, tag, new int[] {localWorld.length}, 1);
        return exchange(world, otherRoot, tag, localWorld, size[0]);
    }

    /**
     * The root broadcasts the remote group (a negative size: none, the root
     * had no usable port) and the id seed in {@code local}; every member
     * builds the intercommunicator.
     */
    private CommStructure portIntercomm(CommStructure local, int root, int[] remoteAtRoot, int seedAtRoot) {
        int[] head = {remoteAtRoot == null ? -1 : remoteAtRoot.length, seedAtRoot};
        bcastInts(local, head, root);
        if (head[0] < 0) {
            return null;
        }
        int[] remoteWorld = remoteAtRoot != null ? remoteAtRoot : new int[head[0]];
        bcastInts(local, remoteWorld, root);
        int[] localWorld = local.current().worldRanks();
        int[] lo = localWorld.clone();
        int[] hi = remoteWorld.clone();
        Arrays.sort(lo);
        Arrays.sort(hi);
        int id = lo[0] < hi[0] ? hashId(head[1], lo, hi) : hashId(head[1], hi, lo);
        return inter(id, localWorld, remoteWorld, local.current().rank());
    }

    /** {@code count} ints from whichever process sends first, on the internal channel (twin-decided). */
    private int[] receiveFromAny(CommStructure given, int tag, int count) {
        CommStructure s = given.current();
        int[] out = new int[count];
        RecvOp r = RecvOp.post(ops, records, new Transfer().on(s, Channel.INTERNAL)
                .data(UserBuffer.of(out), UserBuffer.START, count, INTS).peer(Empi.ANY_SOURCE, tag));
        duty.awaitAll(r);
        return out;
    }

    /** Sends {@code mine} to {@code peerRank} and receives {@code theirs} ints from it, on the internal channel. */
    private int[] exchange(CommStructure given, int peerRank, int tag, int[] mine, int theirs) {
        CommStructure s = given.current();
        int[] out = new int[theirs];
        RecvOp r = RecvOp.post(ops, records, new Transfer().on(s, Channel.INTERNAL)
                .data(UserBuffer.of(out), UserBuffer.START, theirs, INTS).peer(peerRank, tag));
        NativeOp[] sends = SendOp.post(ops, records, new Transfer().on(s, Channel.INTERNAL)
                .data(UserBuffer.of(mine), UserBuffer.START, mine.length, INTS).peer(peerRank, tag));
        NativeOp[] all = Arrays.copyOf(sends, sends.length + 1);
        all[sends.length] = r;
        duty.awaitAll(all);
        return out;
    }

    private void bcastInts(CommStructure given, int[] values, int root) {
        CommStructure s = given.current();
        CollectiveOp op = new CollectiveOp(ops);
        Staged seg = op.stage(4L * Math.max(1, values.length));
        if (s.rank() == root) {
            MemorySegment.copy(values, 0, seg.seg(), ValueLayout.JAVA_INT, 0, values.length);
        }
        op.start(s, seg, (cmp, req) -> Empi.ibcast(seg.seg(), 4 * values.length, Empi.BYTE, root, cmp, req),
                () -> MemorySegment.copy(seg.seg(), ValueLayout.JAVA_INT, 0, values, 0, values.length));
        duty.await(op);
    }

    /**
     * MPI_Intercomm_merge: the group whose members all asked for "high" goes
     * second; when both asked the same, the group holding the lower
     * COMM_WORLD rank goes first.
     */
    public CommStructure merge(CommStructure inter, boolean high) {
        int[] remoteHigh = allGatherInts(inter, high ? 1 : 0);
        boolean remoteIsHigh = remoteHigh.length > 0 && remoteHigh[0] != 0;
        int[] local = inter.worldRanks();
        int[] remote = inter.remoteWorldRanks();
        boolean localFirst = high != remoteIsHigh ? !high
                : Arrays.stream(local).min().getAsInt() < Arrays.stream(remote).min().getAsInt();
        int[] first = localFirst ? local : remote;
        int[] second = localFirst ? remote : local;
        int[] world = new int[first.length + second.length];
        System.arraycopy(first, 0, world, 0, first.length);
        System.arraycopy(second, 0, world, first.length, second.length);
        return intra(hashId(inter.commId() ^ 0x5bd1e995, world, null), world);
    }

    public void free(CommStructure s) {
        abandon(s);
        for (long h : s.natives().owned()) {
            if (h != Empi.COMM_WORLD && h != Empi.COMM_SELF) {
                free(h);
            }
        }
    }

    /**
     * Lets go of a communicator whose natives hold a dead copy (a repair
     * left them behind): only its twin slot is given back, in program order
     * like every free; the natives are never freed, as after any repair.
     */
    public void abandon(CommStructure s) {
        if (s.natives().twin() != null) {
            twinSlots.release(s.natives().twin().slot());
        }
    }

    private void free(long comm) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = Empi.allocateHandles(a, 1);
            Empi.setHandle(h, 0, comm);
            Empi.commFree(h);
        }
    }

    private static void freeGroup(Arena a, long group) {
        MemorySegment g = Empi.allocateHandles(a, 1);
        Empi.setHandle(g, 0, group);
        Empi.groupFree(g);
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }
}

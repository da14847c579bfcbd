package org.fthp.replication.repair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fthp.empi.Empi;
import org.fthp.msglog.ReceiveLog;
import org.fthp.msglog.SendLog;
import org.fthp.replication.failure.FailureWatch;
import org.fthp.replication.failure.Fatal;
import org.fthp.replication.ops.CollectiveLog;
import org.fthp.replication.ops.DecisionOp;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.progress.YieldingIdleStrategy;
import org.fthp.replication.routing.RankLostException;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.routing.Role;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.ConsumedRecord;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.twins.TwinLink;
import org.fthp.replication.twins.TwinRecords;

/**
 * Shrink repair (docs/DESIGN.md §9), run by the thread that calls MPI when the
 * coordinators announce a failure set, from inside whatever MPI call it is in:
 *
 * <ol>
 *   <li>agree with every survivor on the failure set (messages on a private
 *       duplicate of COMM_WORLD, tagged by epoch, so no process enters the
 *       blocking communicator creation with a different set);
 *   <li>promote the replica of every failed computational copy and rebuild the
 *       six native communicators of every live communicator that had a copy
 *       among the failed over the survivors ({@code MPI_Comm_create_group}:
 *       only the survivors take part); a communicator whose copies all live
 *       (COMM_SELF of an untouched rank, a group away from the failure) keeps
 *       its natives, its operations and its messages as they are;
 *   <li>move every operation in flight on a rebuilt communicator onto the new
 *       natives;
 *   <li>exchange receive records of the rebuilt communicators with an
 *       alltoallv on the new eworld, resend from the log whatever a live copy
 *       lacks, and resend the decisions a replica had not received from its
 *       twin.
 *   </ol>
 *
 * <p>Messages already delivered natively but not consumed need no draining:
 * every unconsumed message is resent on the new communicators, and the old
 * ones are abandoned, never waited on (their memory is never reused). A newer
 * failure set arriving mid-repair abandons the attempt and starts over with
 * it.
 */
public final class Repair {

    private final Engine engine;
    private long appliedEpoch;
    private long attemptEpoch;
    private boolean running;
    /** Set when a failure left a rank without a copy: only the coordinators can end the job now. */
    private boolean hopeless;
    /** During MPI_Finalize: says when another process has left for the native finalize, so no repair can finish. */
    private java.util.function.BooleanSupplier released = () -> false;
    /** Once {@link #released} said so: the job is over for this process, failures no longer matter. */
    private boolean over;
    private final RepairTimes times = new RepairTimes();
    /**
     * The communicators rebuilt since the last completed repair, by id. An
     * attempt abandoned after rebuilding some leaves their messages and
     * operations for the next attempt to recover, so the next attempt
     * rebuilds them again: a fellow member may have been abandoned before
     * finishing them, and still holds the structure with the dead copy.
     */
    private final Map<Integer, CommStructure> rebuilt = new HashMap<>();
    private static final boolean TRACE = System.getenv("FTHP_TRACE_REPAIR") != null;

    /** With FTHP_TRACE_REPAIR set, each step of a repair on stderr (built only then). */
    private void trace(String what) {
        org.fthp.replication.output.RuntimeMessages.say("fthp-repair[" + engine.nativeRank() + "] " + what);
    }

    /** Thrown inside an attempt when a newer failure set arrives: the attempt starts over. */
    private static final class Superseded extends RuntimeException {
        Superseded() {
            super(null, null, false, false);
        }
    }

    public Repair(Engine engine) {
        this.engine = engine;
    }

    public RepairTimes times() { return times; }

    /** The failure set the current structures were built for. */
    public long appliedEpoch() { return appliedEpoch; }

    /**
     * From now on (MPI_Finalize) every wait of a repair also asks {@code when}
     * whether another process has left; if so the repair is abandoned and no
     * other is started: every process had finished its communication already.
     */
    public void releaseWhen(java.util.function.BooleanSupplier when) {
        released = when;
    }

    /** Whether {@link #releaseWhen}'s condition has been seen (checked now, once more). */
    public boolean over() {
        if (!over && released.getAsBoolean()) {
            over = true;
        }
        return over;
    }

    /**
     * Loads and links what a repair runs, at start-up: a repair's first run
     * otherwise pays class loading and lambda linkage while every survivor
     * waits for the slowest.
     */
    public void warmUp() {
        RecoveryRecords r = new RecoveryRecords();
        r.add(new RecoveryRecords.Stream(1, 0, 0, Role.CMP, new ConsumedRecord(1, new long[] {3})));
        r.add(new RecoveryRecords.Twin(1, new ConsumedRecord(0, new long[0])));
        r.add(new RecoveryRecords.Collectives(1, new ConsumedRecord(0, new long[0])));
        byte[] b = r.encode();
        RecoveryRecords.decode(b, 0, b.length, new RecoveryRecords());
        Map<String, ConsumedRecord> m = new HashMap<>();
        m.put("1/0/CMP", r.streams().get(0).consumed());
        engine.records().receiveLog().forEachStream((c, s, t, a) -> m.size());
        times.repairs();
    }

    /** Whether a failure set arrived that this process has not repaired yet (one volatile read). */
    public boolean pending() {
        FailureWatch w = engine.failureWatch();
        return w != null && !hopeless && !over && w.epoch() > (running ? attemptEpoch : appliedEpoch);
    }

    /**
     * Before a native call that cannot be abandoned, inside a repair: first
     * every process {@code involved} in it says it is about to enter (one
     * message each way, nonblocking, tagged by epoch), so the wait for a
     * late process happens here, where a newer failure set can still abandon
     * the attempt, rather than inside the call, where a death leaves every
     * member wedged. What remains exposed is a death in the microseconds
     * between this exchange and the call's end. Returns whether a repair is
     * running (then the call is watched for a wedge).
     */
    public boolean beforeBlockingCall(int[] involved) {
        if (!running) {
            if (engine.creation().active()) {
                // the program creates a communicator: wait for late members where a failure can still abandon it
                engine.creation().ready(involved);
            }
            return false;
        }
        if (engine.failureWatch().epoch() > attemptEpoch) {
            throw new Superseded();
        }
        // even right after the agreement: a replica drains its twin's decisions in between, long enough
        // for another death, which this round still folds into the repair (the call would wedge on it)
        exchangeEpoch(attemptEpoch, involved, InternalTags.REPAIR_READY.tag(attemptEpoch));
        return true;
    }

    /** Repairs up to the latest failure set; inside a repair, abandons the attempt for a newer one. */
    public void run() {
        if (running) {
            throw new Superseded();
        }
        FailureWatch watch = engine.failureWatch();
        running = true;
        engine.ops().inFlight().repairing(true);
        try {
            while (!hopeless && !over && watch.epoch() > appliedEpoch) {
                FailureWatch.Snapshot failures = watch.latest();
                attemptEpoch = failures.epoch();
                try {
                    attempt(failures, watch.lastEventNanos());
                    appliedEpoch = failures.epoch();
                    rebuilt.clear();
                } catch (Superseded again) {
                    // fold the newer failures in: start over from the structures we have now
                }
            }
        } catch (RuntimeException e) {
            Fatal.stop("repair after a failure failed on native rank " + engine.nativeRank() + ": " + e, 70);
        } finally {
            engine.ops().inFlight().repairing(false);
            running = false;
        }
    }

    private void attempt(FailureWatch.Snapshot failures, long detectedNanos) {
        long t0 = System.nanoTime();
        ReplicaLayout repaired;
        try {
            if (engine.records().sendLog() == null) {
                throw new RankLostException(-1);
            }
            repaired = engine.layout().withFailures(failures.deadNativeRanks());
        } catch (RankLostException e) {
            // without a copy of that rank nothing can be repaired; the coordinators end the job
            hopeless = true;
            return;
        }
        boolean promoted = engine.role() == Role.REP && repaired.copyOf(engine.nativeRank()) != null
                && repaired.copyOf(engine.nativeRank()).role() == Role.CMP;
        if (repaired.copyOf(engine.nativeRank()) == null) {
            Fatal.dieAsFailed("the coordinators consider native rank " + engine.nativeRank() + " dead; it stops");
        }
        if (TRACE) {
            trace("epoch " + failures.epoch() + ": agreeing on " + repaired);
        }
        agree(failures.epoch(), repaired.eworld());
        if (TRACE) {
            trace("agreed");
        }
        if (engine.role() == Role.REP) {
            keepTwinDecisions(repaired);
        }
        long t1 = System.nanoTime();
        engine.adopt(repaired);
        java.util.Set<Integer> live = new java.util.HashSet<>();
        for (int r : repaired.eworld()) {
            live.add(r);
        }
        // the communicators a copy among the dead touches
        List<CommRef> touched = new ArrayList<>();
        for (CommRef c : engine.liveComms().snapshot()) {
            if (touches(c.get(), live)) {
                touched.add(c);
            }
        }
        // COMM_WORLD first (the first live communicator, and every failure touches it): the others' rebuilt
        // twin channels are its new one, and who holds what is told over its new eworld
        rebuild(touched.get(0));
        Map<Integer, java.util.Set<Integer>> heldBy = exchangeHeld(repaired, touched.subList(1, touched.size()));
        for (CommRef c : touched.subList(1, touched.size())) {
            int holdout = firstWithout(c.get(), heldBy, live);
            if (holdout < 0) {
                rebuild(c);
            } else if (engine.release().isFreeing(c)) {
                // that copy finished freeing it: every live copy had entered the free, this one included
                engine.release().abandon(c);
                if (TRACE) {
                    trace("let go of comm " + c.get().commId() + ": native " + holdout + " had freed it");
                }
            } else {
                throw new IllegalStateException("communicator " + c.get().commId() + " is live here but native "
                        + holdout + " no longer holds it");
            }
        }
        Map<Integer, CommStructure> byId = new HashMap<>(rebuilt);
        engine.ops().inFlight().settleForwarding();
        long t2 = System.nanoTime();
        if (TRACE) {
            trace("rebuilt " + byId.size() + " communicators, role " + engine.role());
        }
        RecoveryRecords received = exchangeRecords(repaired, byId);
        planReplays(received, byId);
        long t3 = System.nanoTime();
        if (TRACE) {
            trace("exchanged records: " + received.streams().size() + " streams, " + received.twins().size()
                    + " twin, " + received.collectives().size() + " collective; " + engine.ops().inFlight().count() + " in flight");
        }
        engine.ops().inFlight().reissueAll();
        for (CommRef c : engine.liveComms().snapshot()) {
            if (c.get() != null) {
                c.get().twinRecords().dropPassedInheritance();
            }
        }
        for (CommStructure s : byId.values()) {
            engine.ops().collectiveLogs().of(s.commId()).replayRest(s);
        }
        resend(received, byId);
        long t4 = System.nanoTime();
        if (TRACE) {
            trace("repaired in " + (t4 - t0) / 1000 + " us: agree " + (t1 - t0) / 1000 + ", rebuild " + (t2 - t1) / 1000
                    + ", records " + (t3 - t2) / 1000 + ", reissue+resend " + (t4 - t3) / 1000
                    + (detectedNanos == 0 ? "" : "; waited " + (t0 - detectedNanos) / 1000 + " us before"));
        }
        times.record(detectedNanos == 0 ? 0 : t0 - detectedNanos, t1 - t0, t2 - t1, t3 - t2, t4 - t3, promoted);
        times.append(failures.epoch(), engine.nativeRank(), java.time.Instant.now());
    }

    /**
     * Whether this repair rebuilds {@code s} (unless a copy let go of it):
     * a copy of a member is not among {@code live}, or an abandoned attempt
     * rebuilt it already. Every member decides alike: one that rebuilt it in
     * an abandoned attempt has it in {@link #rebuilt}, one that had not
     * still holds the structure with the copy that died then.
     */
    private boolean touches(CommStructure s, java.util.Set<Integer> live) {
        return s != null && (rebuilt.containsKey(s.commId()) || !s.current().natives().allIn(live));
    }

    private void rebuild(CommRef c) {
        long b0 = System.nanoTime();
        CommStructure next = engine.structures().rebuild(c.get().current());
        c.repoint(next);
        rebuilt.put(next.commId(), next);
        if (TRACE) {
            trace("rebuilt comm " + next.commId() + " in " + (System.nanoTime() - b0) / 1000 + " us");
        }
    }

    /**
     * Which survivor holds which of the touched communicators (COMM_WORLD
     * aside): a copy that has finished freeing one no longer does
     * ({@code structure.CommRelease}). One all-to-all on the new eworld.
     */
    private Map<Integer, java.util.Set<Integer>> exchangeHeld(ReplicaLayout layout, List<CommRef> touched) {
        java.nio.ByteBuffer mine = java.nio.ByteBuffer.allocate(4 * touched.size());
        touched.forEach(c -> mine.putInt(c.get().commId()));
        int[] eworld = layout.eworld();
        byte[][] out = new byte[eworld.length][];
        java.util.Arrays.fill(out, mine.array());
        byte[][] in = alltoallv(out, engine.world().get().eworld());
        Map<Integer, java.util.Set<Integer>> heldBy = new HashMap<>();
        for (int i = 0; i < eworld.length; i++) {
            java.nio.ByteBuffer theirs = java.nio.ByteBuffer.wrap(in[i]);
            java.util.Set<Integer> ids = new java.util.HashSet<>();
            while (theirs.hasRemaining()) {
                ids.add(theirs.getInt());
            }
            heldBy.put(eworld[i], ids);
        }
        return heldBy;
    }

    /** A live copy of a member of {@code s} that does not hold it, or -1 when every one does. */
    private int firstWithout(CommStructure s, Map<Integer, java.util.Set<Integer>> heldBy, java.util.Set<Integer> live) {
        for (int copy : s.current().natives().copies()) {
            if (live.contains(copy) && !heldBy.get(copy).contains(s.commId())) {
                return copy;
            }
        }
        return -1;
    }

    /** The largest twin message worth keeping: a decision (a collective's forwarded result is run again instead). */
    private static final int MAX_DECISION_BYTES = 1024;

    /**
     * This copy is a replica, and the rebuild is about to abandon its twin
     * channel. Decisions its twin had sent and it had not taken yet are in
     * that channel. While the twin lives it sends them again (the records
     * exchange tells it what is missing), but if it dies first, or has died
     * now, the promoted copy must replay them rather than decide anew: the
     * twin may already have sent messages that depend on them (a wildcard
     * receive's match decides what a rank answers). So first every operation
     * in flight is progressed once (one whose receive had matched its
     * decision takes it), then, for every communicator the rebuild moves to
     * the new channel, its decisions are taken off the old one and kept by
     * number (TwinRecords#inherit), used only once this copy is promoted and
     * dropped as their numbers pass. Local calls only: a probed message is
     * already here.
     */
    private void keepTwinDecisions(ReplicaLayout repaired) {
        engine.ops().inFlight().pollAll();
        java.util.Set<Integer> live = new java.util.HashSet<>();
        for (int r : repaired.eworld()) {
            live.add(r);
        }
        Arena arena = Arena.ofConfined();
        int kept = 0;
        boolean settled = true;
        for (CommRef c : engine.liveComms().snapshot()) {
            CommStructure s = c.get();
            // only a communicator the rebuild moves to COMM_WORLD's new twin channel; one it leaves alone keeps
            // the old channel, and its twin's decisions on it
            if (!touches(s, live) || s.twin() == null) {
                continue;
            }
            int n = drainDecisions(s, arena);
            if (n < 0) {
                settled = false;
                kept += -1 - n;
                break;
            }
            kept += n;
        }
        if (settled) {
            arena.close();
        }
        if (TRACE) {
            trace("kept " + kept + " decisions of the twin channel");
        }
    }

    /** Decision numbers the twin may have sent ahead of this copy; a run this long of absent ones ends the scan. */
    private static final int DECISION_SCAN_GAP = 256;

    /**
     * Takes {@code s}'s decisions off its twin channel, by number from the
     * next one this copy would take (a forwarded outcome goes as its
     * operation completes, so a few may come out of order: the scan ends
     * after {@link #DECISION_SCAN_GAP} absent numbers); returns how many it
     * kept, or {@code -1 - kept} when a receive did not complete (then it
     * still points into {@code arena}, which must stay allocated).
     */
    private int drainDecisions(CommStructure s, Arena arena) {
        org.fthp.replication.twins.TwinChannel channel = s.twin().channel();
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = arena.allocate(Empi.STATUS_BYTES);
        MemorySegment message = Empi.allocateHandles(arena, 1);
        MemorySegment request = Empi.allocateHandles(arena, 1);
        MemorySegment scratch = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment data = arena.allocate(MAX_DECISION_BYTES);
        int kept = 0;
        for (int n = s.twinRecords().nextDecisionPeek(), absent = 0; absent < DECISION_SCAN_GAP; n++) {
            int tag = InternalTags.twinDecision(channel.slot(), n);
            Empi.iprobe(channel.twinRank(), tag, channel.comm(), flag, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                absent++;
                continue;
            }
            absent = 0;
            int bytes = Empi.statusBytes(status, 0, scratch);
            if (bytes > MAX_DECISION_BYTES) {
                continue; // a collective's result: left with the abandoned channel, the collective runs again
            }
            Empi.improbe(channel.twinRank(), tag, channel.comm(), flag, message, status);
            Empi.imrecv(data, bytes, Empi.BYTE, message, request);
            if (!completedWithin(request, flag, status, 10_000_000L)) {
                return -1 - kept; // never for a matched small message; the channel is abandoned anyway
            }
            s.twinRecords().inherit(n & ((1 << InternalTags.TWIN_DECISION_BITS) - 1),
                    data.asSlice(0, bytes).toArray(ValueLayout.JAVA_BYTE));
            kept++;
        }
        return kept;
    }

    private boolean completedWithin(MemorySegment request, MemorySegment flag, MemorySegment status, long nanos) {
        long end = System.nanoTime() + nanos;
        while (!completed(request, flag, status)) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    // ---- 1. agreement on the failure set ----

    /**
     * Sends this epoch to every survivor and waits for theirs. Each epoch has
     * its own tag, so a process still at an older epoch never matches; one
     * that is ahead makes us wait until our coordinator delivers its epoch,
     * which supersedes this attempt.
     */
    private void agree(long epoch, int[] survivors) {
        exchangeEpoch(epoch, survivors, InternalTags.REPAIR_AGREE.tag(epoch));
    }

    /**
     * Sends {@code epoch} to every other process of {@code nativeRanks} and
     * waits for each of theirs, on the control communicator with {@code tag};
     * a newer failure set abandons the wait.
     */
    private void exchangeEpoch(long epoch, int[] nativeRanks, int tag) {
        ControlExchange round = new ControlExchange(engine.controlComm(), engine.nativeRank(), nativeRanks, tag,
                epoch);
        try {
            await(round::heardFromAll);
        } finally {
            round.close();
        }
    }

    /** Waits until {@code done} says so; a newer failure set abandons the attempt. */
    private void await(java.util.function.BooleanSupplier done) {
        // every survivor is in the repair: yield the core to them rather than sleep (parking costs
        // a millisecond a round on an oversubscribed node)
        DutyCycle.await(() -> {
            if (done.getAsBoolean()) {
                return true;
            }
            if (engine.failureWatch().epoch() > attemptEpoch || over()) {
                throw new Superseded();
            }
            return false;
        }, () -> 0, new YieldingIdleStrategy());
    }

    /** Whether the native request is done (tests it). */
    private boolean completed(MemorySegment request, MemorySegment flag, MemorySegment status) {
        Empi.test(request, flag, status);
        return flag.get(ValueLayout.JAVA_INT, 0) != 0;
    }

    // ---- 4. message recovery ----

    /**
     * Every copy tells the live copies of each source it received from how
     * far it consumed that stream; a replica tells its twin which decisions
     * it received. One alltoallv over the new COMM_WORLD eworld.
     */
    private RecoveryRecords exchangeRecords(ReplicaLayout layout, Map<Integer, CommStructure> byId) {
        int[] eworld = layout.eworld();
        Map<Integer, Integer> indexOfNative = new HashMap<>();
        for (int i = 0; i < eworld.length; i++) {
            indexOfNative.put(eworld[i], i);
        }
        RecoveryRecords[] out = new RecoveryRecords[eworld.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = new RecoveryRecords();
        }
        Role role = engine.role();
        ReceiveLog consumed = engine.records().receiveLog();
        consumed.forEachStream((commId, source, through, above) -> {
            CommStructure s = byId.get(commId);
            if (s == null) {
                return;
            }
            int senderWorld = s.isInter() ? s.remoteWorldRanks()[source] : s.worldRanks()[source];
            var record = new RecoveryRecords.Stream(commId, source, s.rank(), role, new ConsumedRecord(through, above));
            out[indexOfNative.get(layout.cmpNative(senderWorld))].add(record);
            if (layout.hasReplica(senderWorld)) {
                out[indexOfNative.get(layout.repNative(senderWorld))].add(record);
            }
        });
        if (role == Role.CMP) {
            // to every other computational copy of each communicator: which of its collectives completed here
            for (CommStructure s : byId.values()) {
                var record = new RecoveryRecords.Collectives(s.commId(),
                        engine.ops().collectiveLogs().of(s.commId()).completedRecord());
                for (int member : membersOf(s)) {
                    if (member != engine.logicalRank()) {
                        out[indexOfNative.get(layout.cmpNative(member))].add(record);
                    }
                }
            }
        }
        if (role == Role.REP) {
            int twin = indexOfNative.get(layout.cmpNative(engine.logicalRank()));
            for (CommStructure s : byId.values()) {
                if (s.twin() != null) {
                    var r = s.twinRecords();
                    out[twin].add(new RecoveryRecords.Twin(s.commId(), new ConsumedRecord(r.receivedThrough(),
                            r.receivedAbove())));
                }
            }
        }
        byte[][] blobs = new byte[out.length][];
        for (int i = 0; i < out.length; i++) {
            blobs[i] = out[i].encode();
        }
        RecoveryRecords in = new RecoveryRecords();
        for (byte[] b : alltoallv(blobs, engine.world().get().eworld())) {
            RecoveryRecords.decode(b, 0, b.length, in);
        }
        return in;
    }

    /** Logical COMM_WORLD ranks of every member (both groups of an intercommunicator). */
    private static int[] membersOf(CommStructure s) {
        int[] local = s.worldRanks();
        int[] remote = s.remoteWorldRanks();
        if (remote == null) {
            return local;
        }
        int[] all = java.util.Arrays.copyOf(local, local.length + remote.length);
        System.arraycopy(remote, 0, all, local.length, remote.length);
        return all;
    }

    /**
     * Every collective this process completed that another computational
     * copy of the communicator did not is run again, in order, before the
     * collectives in flight start again (docs/DESIGN.md §9, step 6).
     */
    private void planReplays(RecoveryRecords received, Map<Integer, CommStructure> byId) {
        if (engine.role() != Role.CMP) {
            return;
        }
        Map<Integer, List<ConsumedRecord>> others = new HashMap<>();
        for (RecoveryRecords.Collectives c : received.collectives()) {
            others.computeIfAbsent(c.commId(), k -> new java.util.ArrayList<>()).add(c.completed());
        }
        for (CommStructure s : byId.values()) {
            CollectiveLog log = engine.ops().collectiveLogs().of(s.commId());
            log.plan(others.getOrDefault(s.commId(), List.of()));
            if (TRACE) {
                trace("comm " + s.commId() + ": completed " + log.completedRecord().through() + " "
                        + java.util.Arrays.toString(log.completedRecord().above()) + ", replays "
                        + log.plannedReplays());
            }
        }
    }

    /** One alltoallv of {@code out[i]} to eworld index i over {@code comm}; what each index sent here. */
    private byte[][] alltoallv(byte[][] blobs, long comm) {
        int n = blobs.length;
        int total = 0;
        for (byte[] b : blobs) {
            total += b.length;
        }
        Arena arena = Arena.ofShared();
        MemorySegment request = Empi.allocateHandles(arena, 1);
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = arena.allocate(Empi.STATUS_BYTES);
        MemorySegment sendCounts = arena.allocate(4L * n);
        MemorySegment recvCounts = arena.allocate(4L * n);
        for (int i = 0; i < n; i++) {
            sendCounts.setAtIndex(ValueLayout.JAVA_INT, i, blobs[i].length);
        }
        Empi.ialltoall(sendCounts, 4, Empi.BYTE, recvCounts, 4, Empi.BYTE, comm, request);
        await(() -> completed(request, flag, status));
        MemorySegment sendDispls = arena.allocate(4L * n);
        MemorySegment recvDispls = arena.allocate(4L * n);
        int recvTotal = 0;
        for (int i = 0, at = 0; i < n; i++) {
            sendDispls.setAtIndex(ValueLayout.JAVA_INT, i, at);
            at += blobs[i].length;
            recvDispls.setAtIndex(ValueLayout.JAVA_INT, i, recvTotal);
            recvTotal += recvCounts.getAtIndex(ValueLayout.JAVA_INT, i);
        }
        MemorySegment send = arena.allocate(Math.max(1, total));
        for (int i = 0, at = 0; i < n; i++) {
            MemorySegment.copy(blobs[i], 0, send, ValueLayout.JAVA_BYTE, at, blobs[i].length);
            at += blobs[i].length;
        }
        MemorySegment recv = arena.allocate(Math.max(1, recvTotal));
        Empi.ialltoallv(send, sendCounts, sendDispls, Empi.BYTE, recv, recvCounts, recvDispls, Empi.BYTE, comm,
                request);
        await(() -> completed(request, flag, status));
        byte[][] in = new byte[n][];
        for (int i = 0; i < n; i++) {
            in[i] = recv.asSlice(recvDispls.getAtIndex(ValueLayout.JAVA_INT, i),
                    recvCounts.getAtIndex(ValueLayout.JAVA_INT, i)).toArray(ValueLayout.JAVA_BYTE);
        }
        arena.close();
        return in;
    }

    /** One receiving copy of a stream: communicator, rank in it, role (no string building on the repair's path). */
    private static long streamKey(int commId, int receiverRank, Role receiverRole) {
        return ((long) commId << 32) | ((long) receiverRank << 1) | (receiverRole == Role.REP ? 1 : 0);
    }

    /**
     * Resends, for every stream this copy feeds, the logged messages the
     * receiving copy lacks; remembers what a copy got from our twin ahead of
     * us, so we never send it again; and, as a computational copy, resends the
     * decisions its replica had not received.
     */
    private void resend(RecoveryRecords received, Map<Integer, CommStructure> byId) {
        Map<Long, ConsumedRecord> records = new HashMap<>();
        for (RecoveryRecords.Stream r : received.streams()) {
            records.put(streamKey(r.commId(), r.receiverRank(), r.receiverRole()), r.consumed());
        }
        SendLog log = engine.records().sendLog();
        Role role = engine.role();
        ConsumedRecord nothing = new ConsumedRecord(0, new long[0]);
        for (CommStructure s : byId.values()) {
            int peers = s.isInter() ? s.remoteSize() : s.size();
            for (int p = 0; p < peers; p++) {
                long lastSent = s.sendIds().last(p);
                for (boolean extra : new boolean[] {false, true}) {
                    Endpoint to = extra ? s.sendExtra(p) : s.sendPrimary(p);
                    if (to == null) {
                        continue;
                    }
                    Role receiverRole = extra ? Role.REP : role;
                    ConsumedRecord r = records.getOrDefault(streamKey(s.commId(), p, receiverRole), nothing);
                    if (r.highest() > lastSent) {
                        s.skipConsumed(p, extra, r);
                    }
                    if (lastSent == 0) {
                        continue;
                    }
                    List<SendLog.Entry> missing = log.missing(s.commId(), p, r.through(), r.above(), lastSent);
                    if (TRACE) {
                        trace("resend comm " + s.commId() + " to " + p + (extra ? " (rep)" : "") + ": sent through "
                                + lastSent + ", it has " + r.through() + " " + java.util.Arrays.toString(r.above()) + ", "
                                + missing.size() + " again");
                    }
                    for (SendLog.Entry e : missing) {
                        engine.orphans().adopt(SendOp.resend(engine.ops(), s, to, e));
                    }
                }
            }
        }
        for (RecoveryRecords.Twin t : received.twins()) {
            CommStructure s = byId.get(t.commId());
            TwinLink link = s == null ? null : s.twin();
            if (link == null || link.follows()) {
                continue;
            }
            for (TwinRecords.Forward f : s.twinRecords().missing(t.received().through(), t.received().above())) {
                engine.orphans().adopt(DecisionOp.resend(engine.ops(), s, f.tag(), f.data()));
            }
        }
    }
}

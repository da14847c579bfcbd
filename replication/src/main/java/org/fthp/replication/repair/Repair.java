package org.fthp.replication.repair;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fthp.coordinator.event.Role;
import org.fthp.msglog.ReceiveLog;
import org.fthp.msglog.SendLog;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.creation.CommRelease;
import org.fthp.replication.creation.ControlExchange;
import org.fthp.replication.creation.StructureBuilder;
import org.fthp.replication.failure.Coordination;
import org.fthp.replication.failure.FailureWatch;
import org.fthp.replication.failure.Fatal;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.ops.CollectiveLog;
import org.fthp.replication.ops.DecisionOp;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.OrphanRequests;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.output.RankOutput;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.progress.YieldingIdleStrategy;
import org.fthp.replication.routing.Membership;
import org.fthp.replication.routing.RankLostException;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.ConsumedRecord;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.structure.LiveComms;
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
 *   <li>exchange receive records of the rebuilt communicators (one round of
 *       messages among the survivors: BlobExchange), resend from the log
 *       whatever a live copy lacks, and resend the decisions a replica had
 *       not received from its twin.
 *   </ol>
 *
 * <p>Messages already delivered natively but not consumed need no draining:
 * every unconsumed message is resent on the new communicators, and the old
 * ones are abandoned, never waited on (their memory is never reused). A newer
 * failure set arriving mid-repair abandons the attempt and starts over with
 * it.
 */
public final class Repair {

    /** Who holds which copy, this process's role and the failure set they reflect: what a repair changes. */
    private final Membership membership;
    private final OpContext ops;
    private final MessageRecords records;
    /** Progresses the resends, which nobody waits for. */
    private final OrphanRequests orphans;
    private final LiveComms comms;
    /** The engine's own communicator of this generation. */
    private final ControlComm controlComm;
    private final Coordination coordination;
    private final StructureBuilder structures;
    private final CommRelease release;
    /** This copy's output, handed over at a promotion; null when it prints straight through mpirun. */
    private final RankOutput output;
    private long attemptEpoch;
    private boolean running;
    /** Set when a failure left a rank without a copy: only the coordinators can end the job now. */
    private boolean hopeless;
    /** During MPI_Finalize: says when another process has left for the native finalize, so no repair can finish. */
    private java.util.function.BooleanSupplier released = () -> false;
    /** Once {@link #released} said so: the job is over for this process, failures no longer matter. */
    private boolean over;
    /** Set by the thread calling MPI when a rollback in place abandons this engine (read by the repair thread). */
    private volatile boolean abandoned;
    private final RepairTimes times = new RepairTimes();
    /** Survivors' all-to-alls (control communicator); a newer failure set abandons them like any wait of an attempt. */
    private final BlobExchange exchange = new BlobExchange(this::await);
    /**
     * The communicators rebuilt since the last completed repair, by id. An
     * attempt abandoned after rebuilding some leaves their messages and
     * operations for the next attempt to recover, so the next attempt
     * rebuilds them again: a fellow member may have been abandoned before
     * finishing them, and still holds the structure with the dead copy.
     */
    private final Map<Integer, CommStructure> rebuilt = new HashMap<>();
    private static final boolean TRACE = System.getenv("FTHP_TRACE_REPAIR") != null;
    /** When the traced attempt started (trace lines give the time since). */
    private long traceStart;

    /** With FTHP_TRACE_REPAIR set, each step of a repair on stderr (built only then). */
    private void trace(String what) {
        org.fthp.replication.output.RuntimeMessages.say("fthp-repair[" + membership.nativeRank() + "] @"
                + System.nanoTime() / 1000 % 100_000_000 + " +" + (System.nanoTime() - traceStart) / 1000 + " us " + what);
    }

    /** Thrown inside an attempt when a newer failure set arrives: the attempt starts over. */
    private static final class Superseded extends RuntimeException {
        Superseded() {
            super(null, null, false, false);
        }
    }

    public Repair(Membership membership, OpContext ops, MessageRecords records, OrphanRequests orphans,
                  LiveComms comms, ControlComm controlComm, Coordination coordination, StructureBuilder structures,
                  CommRelease release, RankOutput output) {
        this.membership = membership;
        this.ops = ops;
        this.records = records;
        this.orphans = orphans;
        this.comms = comms;
        this.controlComm = controlComm;
        this.coordination = coordination;
        this.structures = structures;
        this.release = release;
        this.output = output;
    }

    public RepairTimes times() { return times; }

    /** The failure set the current structures were built for. */
    public long appliedEpoch() { return membership.appliedEpoch(); }

    /**
     * From now on (MPI_Finalize) every wait of a repair also asks {@code when}
     * whether another process has left; if so the repair is abandoned and no
     * other is started: every process had finished its communication already.
     */
    public void releaseWhen(java.util.function.BooleanSupplier when) {
        released = when;
    }

    /**
     * A rollback in place abandons this engine: a repair under way leaves at its next wait instead of waiting there
     * for the failure set that ends it, which the rollback's unwinding would otherwise wait for, and none starts.
     */
    public void abandon() {
        abandoned = true;
    }

    /** Whether {@link #releaseWhen}'s condition has been seen (checked now, once more), or a rollback abandoned it. */
    public boolean over() {
        if (!over && (abandoned || released.getAsBoolean())) {
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
        records.receiveLog().forEachStream((c, s, t, a) -> m.size());
        times.repairs();
        HeldComms.fromAgreement(0, HeldComms.agreementMessage(1, new int[] {1}), new int[0],
                new java.nio.ByteBuffer[0]);
        // epoch 0 has no repair: its tags are free for this
        BlobExchange.warmUp(controlComm, membership.nativeRank(), InternalTags.REPAIR_BLOBS.tag(1),
                1_000_000_000L);
    }

    /** Whether a failure set arrived that this process has not repaired yet (one volatile read). */
    public boolean pending() {
        FailureWatch w = coordination.watch();
        return w != null && !hopeless && !over && !abandoned
                && w.epoch() > (running ? attemptEpoch : membership.appliedEpoch());
    }

    /**
     * Before a native call that cannot be abandoned: first every process
     * {@code involved} in it says it is about to enter (one message each
     * way, nonblocking, tagged by epoch), so the wait for a late process
     * happens here, where a newer failure set can still abandon the attempt,
     * rather than inside the call. Once a process said so it does not leave
     * the round for a failure of someone outside it, since it may be inside
     * the call already; what remains exposed is a death of one of the {@code
     * involved} between this exchange and the call's end (the members then
     * wedged stop after a grace period: failure.BlockingCalls). Outside a
     * repair, the program's own creation does the same (CommCreation).
     */
    private void beforeBlockingCall(int[] involved) {
        if (coordination.watch().epoch() > attemptEpoch) {
            throw new Superseded();
        }
        // even right after the agreement: a replica drains its twin's decisions in between, long enough
        // for another death, which this round still folds into the repair (the call would wedge on it)
        ControlExchange round = new ControlExchange(controlComm, membership.nativeRank(), involved,
                InternalTags.REPAIR_READY.tag(attemptEpoch), attemptEpoch);
        long r0 = TRACE ? System.nanoTime() : 0;
        try {
            // a peer that said it is ready may be inside the call already: a newer failure set supersedes the
            // attempt only once the round cannot complete (ControlExchange#peerLeft), else those in the call
            // would wait for the others for ever
            DutyCycle.await(() -> {
                if (round.heardFromAll()) {
                    return true;
                }
                FailureWatch.Snapshot latest = coordination.watch().latest();
                if (over() || (latest.epoch() > attemptEpoch
                        && round.peerLeft(latest.deadNativeRanks(), attemptEpoch, latest.epoch()))) {
                    throw new Superseded();
                }
                return false;
            }, () -> 0, new YieldingIdleStrategy());
            if (TRACE) {
                trace("ready round " + java.util.Arrays.toString(involved) + " took " + (System.nanoTime() - r0) / 1000
                        + " us");
            }
        } finally {
            round.close();
        }
    }

    /** Repairs up to the latest failure set; inside a repair, abandons the attempt for a newer one. */
    public void run() {
        if (running) {
            throw new Superseded();
        }
        FailureWatch watch = coordination.watch();
        // a promotion is counted against the role before this repair: an attempt abandoned after it adopted
        // the new layout leaves this copy computational already, and the next attempt would not count it
        Role before = membership.role();
        running = true;
        ops.inFlight().repairing(true);
        try {
            while (!hopeless && !over && watch.epoch() > membership.appliedEpoch()) {
                FailureWatch.Snapshot failures = watch.latest();
                attemptEpoch = failures.epoch();
                try {
                    attempt(failures, watch.lastEventNanos(), before);
                    membership.applied(failures.epoch());
                    rebuilt.clear();
                } catch (Superseded again) {
                    // fold the newer failures in: start over from the structures we have now
                }
            }
        } catch (RuntimeException e) {
            Fatal.stop("repair after a failure failed on native rank " + membership.nativeRank() + ": " + e, 70);
        } finally {
            ops.inFlight().repairing(false);
            running = false;
        }
    }

    private void attempt(FailureWatch.Snapshot failures, long detectedNanos, Role before) {
        long t0 = System.nanoTime();
        traceStart = t0;
        ReplicaLayout repaired;
        try {
            if (records.sendLog() == null) {
                throw new RankLostException(-1);
            }
            repaired = membership.layout().withFailures(failures.deadNativeRanks());
        } catch (RankLostException e) {
            // without a copy of that rank nothing can be repaired; the coordinators end the job
            hopeless = true;
            return;
        }
        boolean promoted = before == Role.REP && repaired.copyOf(membership.nativeRank()) != null
                && repaired.copyOf(membership.nativeRank()).role() == Role.CMP;
        if (repaired.copyOf(membership.nativeRank()) == null) {
            Fatal.dieAsFailed("the coordinators consider native rank " + membership.nativeRank() + " dead; it stops");
        }
        if (TRACE) {
            trace("epoch " + failures.epoch() + ": agreeing on " + repaired);
        }
        java.util.Set<Integer> live = new java.util.HashSet<>();
        for (int r : repaired.eworld()) {
            live.add(r);
        }
        // the communicators a copy among the dead touches (the program creates or frees none during a repair)
        List<CommRef> touched = new ArrayList<>();
        for (CommRef c : comms.snapshot()) {
            if (touches(c.get(), live)) {
                touched.add(c);
            }
        }
        // which of them each survivor holds goes with the agreement, when the ids fit its messages
        HeldComms held = agree(failures.epoch(), repaired.eworld(), touched.subList(1, touched.size()));
        if (TRACE) {
            trace("agreed" + (held == null ? "; the communicators held did not fit" : ""));
        }
        if (membership.role() == Role.REP) {
            keepTwinDecisions(live);
        }
        long t1 = System.nanoTime();
        if (membership.adopt(repaired) && output != null) {
            output.promote();
        }
        // COMM_WORLD first (the first live communicator, and every failure touches it): the others' rebuilt
        // twin channels are its new one
        rebuild(touched.get(0));
        if (held == null) {
            // some survivor holds more communicators than an agreement message carries: told over the new eworld
            held = HeldComms.exchange(exchange, repaired.eworld(), membership.nativeRank(), controlComm,
                    InternalTags.REPAIR_BLOBS.tag(2 * attemptEpoch), touched.subList(1, touched.size()));
            if (TRACE) {
                trace("told which of " + (touched.size() - 1) + " other communicators each holds");
            }
        }
        for (CommRef c : touched.subList(1, touched.size())) {
            int holdout = held.firstWithout(c.get(), live);
            if (holdout < 0) {
                rebuild(c);
            } else if (release.isFreeing(c)) {
                // that copy finished freeing it: every live copy had entered the free, this one included
                release.abandon(c);
                if (TRACE) {
                    trace("let go of comm " + c.get().commId() + ": native " + holdout + " had freed it");
                }
            } else {
                throw new IllegalStateException("communicator " + c.get().commId() + " is live here but native "
                        + holdout + " no longer holds it");
            }
        }
        Map<Integer, CommStructure> byId = new HashMap<>(rebuilt);
        ops.inFlight().settleForwarding();
        long t2 = System.nanoTime();
        if (TRACE) {
            trace("rebuilt " + byId.size() + " communicators, role " + membership.role());
        }
        RecoveryRecords received = exchangeRecords(repaired, byId);
        planReplays(received, byId);
        long t3 = System.nanoTime();
        if (TRACE) {
            trace("exchanged records: " + received.streams().size() + " streams, " + received.twins().size()
                    + " twin, " + received.collectives().size() + " collective; " + ops.inFlight().count()
                    + " in flight");
        }
        ops.inFlight().reissueAll();
        for (CommRef c : comms.snapshot()) {
            if (c.get() != null) {
                c.get().twinRecords().dropPassedInheritance();
            }
        }
        for (CommStructure s : byId.values()) {
            ops.collectiveLogs().of(s.commId()).replayRest(s);
        }
        resend(received, byId);
        long t4 = System.nanoTime();
        if (TRACE) {
            trace("repaired in " + (t4 - t0) / 1000 + " us: agree " + (t1 - t0) / 1000 + ", rebuild " + (t2 - t1) / 1000
                    + ", records " + (t3 - t2) / 1000 + ", reissue+resend " + (t4 - t3) / 1000
                    + (detectedNanos == 0 ? "" : "; waited " + (t0 - detectedNanos) / 1000 + " us before"));
        }
        times.record(detectedNanos == 0 ? 0 : t0 - detectedNanos, t1 - t0, t2 - t1, t3 - t2, t4 - t3, promoted);
        times.append(failures.epoch(), membership.nativeRank(), java.time.Instant.now(),
                coordination.watch().lastFromBoard() ? "board" : "connection");
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
        CommStructure next = structures.rebuild(c.get().current(), this::beforeBlockingCall);
        c.repoint(next);
        rebuilt.put(next.commId(), next);
        if (TRACE) {
            trace("rebuilt comm " + next.commId() + " in " + (System.nanoTime() - b0) / 1000 + " us");
        }
    }

    /**
     * This copy is a replica, and the rebuild is about to abandon its twin
     * channel: first every operation in flight is progressed once (one whose
     * receive had matched its decision takes it), then the twin's decisions
     * still in the channel are kept ({@link TwinDecisionDrain}) for every
     * communicator the rebuild moves to COMM_WORLD's new twin channel; one it
     * leaves alone keeps the old channel, and its twin's decisions on it.
     */
    private void keepTwinDecisions(java.util.Set<Integer> live) {
        ops.inFlight().pollAll();
        if (TRACE) {
            trace("polled every operation in flight");
        }
        List<CommStructure> moved = new ArrayList<>();
        for (CommRef c : comms.snapshot()) {
            if (touches(c.get(), live) && c.get().twin() != null) {
                moved.add(c.get());
            }
        }
        int kept = TwinDecisionDrain.keep(moved);
        if (TRACE) {
            trace("kept " + kept + " decisions of the twin channel");
        }
    }

    // ---- 1. agreement on the failure set ----

    /**
     * Sends this epoch to every survivor and waits for theirs. Each epoch has
     * its own tag, so a process still at an older epoch never matches; one
     * that is ahead makes us wait until our coordinator delivers its epoch,
     * which supersedes this attempt. The same messages say which of {@code
     * others} (the touched communicators but COMM_WORLD) each survivor holds,
     * which spares the rebuild a round of its own; returns who holds what, or
     * null when some survivor's ids did not fit (every survivor sees every
     * message, so all return null alike).
     */
    private HeldComms agree(long epoch, int[] survivors, List<CommRef> others) {
        byte[] mine = HeldComms.agreementMessage(epoch, others.stream().mapToInt(c -> c.get().commId()).toArray());
        ControlExchange round = new ControlExchange(controlComm, membership.nativeRank(), survivors,
                InternalTags.REPAIR_AGREE.tag(epoch), mine, HeldComms.AGREEMENT_BYTES);
        try {
            await(round::heardFromAll);
            int[] peers = round.peers();
            java.nio.ByteBuffer[] messages = new java.nio.ByteBuffer[peers.length];
            for (int k = 0; k < peers.length; k++) {
                messages[k] = round.message(k);
            }
            return HeldComms.fromAgreement(membership.nativeRank(), mine, peers, messages);
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
            if (coordination.watch().epoch() > attemptEpoch || over()) {
                throw new Superseded();
            }
            return false;
        }, () -> 0, new YieldingIdleStrategy());
    }

    // ---- 4. message recovery ----

    /**
     * Every copy tells the live copies of each source it received from how
     * far it consumed that stream; a replica tells its twin which decisions
     * it received. One message to every survivor ({@link BlobExchange}).
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
        Role role = membership.role();
        ReceiveLog consumed = records.receiveLog();
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
                        ops.collectiveLogs().of(s.commId()).completedRecord());
                for (int member : membersOf(s)) {
                    if (member != membership.logicalRank()) {
                        out[indexOfNative.get(layout.cmpNative(member))].add(record);
                    }
                }
            }
        }
        if (role == Role.REP) {
            int twin = indexOfNative.get(layout.cmpNative(membership.logicalRank()));
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
        for (byte[] b : exchange.exchange(blobs, eworld, membership.nativeRank(), controlComm,
                InternalTags.REPAIR_BLOBS.tag(2 * attemptEpoch + 1))) {
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
        if (membership.role() != Role.CMP) {
            return;
        }
        Map<Integer, List<ConsumedRecord>> others = new HashMap<>();
        for (RecoveryRecords.Collectives c : received.collectives()) {
            others.computeIfAbsent(c.commId(), k -> new java.util.ArrayList<>()).add(c.completed());
        }
        for (CommStructure s : byId.values()) {
            CollectiveLog<NativeOp> log = ops.collectiveLogs().of(s.commId());
            log.plan(others.getOrDefault(s.commId(), List.of()));
            if (TRACE) {
                trace("comm " + s.commId() + ": completed " + log.completedRecord().through() + " "
                        + java.util.Arrays.toString(log.completedRecord().above()) + ", replays "
                        + log.plannedReplays());
            }
        }
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
        SendLog log = this.records.sendLog();
        Role role = membership.role();
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
                        orphans.adopt(SendOp.resend(ops, s, to, e));
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
                orphans.adopt(DecisionOp.resend(ops, s, f.tag(), f.data()));
            }
        }
    }
}

package org.fthp.checkpoint.api;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.fthp.checkpoint.piece.CorruptPieceException;
import org.fthp.checkpoint.piece.PieceReader;
import org.fthp.checkpoint.piece.PieceWriter;
import org.fthp.coordinator.checkpoint.PieceBytes;
import org.fthp.coordinator.client.CheckpointTransferException;
import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.event.Role;
import org.fthp.replication.failure.CallKill;
import org.fthp.replication.failure.Fatal;
import org.fthp.replication.output.RankOutput;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.Gate;
import org.fthp.replication.runtime.Incarnation;
import org.fthp.replication.sdc.SendDigest;
import org.fthp.replication.verify.TwinComparison;
import org.fthp.replication.verify.VerifiedOutput;

/**
 * The checkpoint state of one process for one run of MPI: what the program
 * registered, the epochs, and the steps of a snapshot and of a recovery.
 *
 * <p>A snapshot: every rank contributes whether its coordinator's timer said a
 * checkpoint is due and whether it has a nonblocking request pending; the
 * engine's allgather over COMM_WORLD gives every rank (and, through the twin
 * channel, every replica) the same answers, so all of them take the same
 * decision at the same call. Then each computational copy writes its rank's
 * piece to the coordinators and reports what it cost; replicas write nothing
 * (a replica promoted later writes from then on). The primary commits the
 * epoch once every rank's piece is held: a snapshot does not wait for the
 * commit (unless a replica is due to be restored from a spare at it:
 * {@link RestorationWait}), and a death before it leaves the previous epoch
 * the one a restart uses.
 */
final class CheckpointSession {

    /**
     * {@code NATIVE:EPOCH,...}: that process dies (SIGKILL) while it writes its
     * piece of that epoch (encoded, not yet held by the coordinators): what a
     * death in the middle of a checkpoint does, made repeatable for tests (set
     * through mpirun's {@code -x}).
     */
    static final String KILL_ENV = "FTHP_KILL_IN_CHECKPOINT";

    /** Seconds between twin comparisons outside checkpoints (fthp-run's --sdc-interval). */
    static final String SDC_INTERVAL_ENV = "FTHP_SDC_INTERVAL";
    static final double DEFAULT_SDC_INTERVAL_SECONDS = 1.0;

    /** With FTHP_TRACE_CHECKPOINT set, each piece's encode and put times on stderr. */
    private static final boolean TRACE = System.getenv("FTHP_TRACE_CHECKPOINT") != null;

    /** How long a piece may take to reach the coordinators' memory, or to come back. */
    private static final Duration TRANSFER_TIMEOUT =
            Duration.ofSeconds(Long.getLong("fthp.checkpoint.timeoutSeconds", 300));

    /** The session of the running engine (MPI may be initialised once per process). */
    private static volatile CheckpointSession current;

    private final Engine engine;
    private final Incarnation incarnation;
    /** The epoch whose piece this process dies writing (KILL_ENV, first run only); 0: none. */
    private final long killInEpoch;
    private final Map<String, Object> registered = new LinkedHashMap<>();
    /** Registrations the twins do not compare (a copy's own timers): written, never hashed. */
    private final Set<String> uncompared = new HashSet<>();
    /**
     * What was registered when the resilient body was first entered (null before): a rollback keeps only these, so
     * the unwound body's state is garbage before the body allocates it again.
     */
    private Map<String, Object> outsideBody;
    private Set<String> outsideBodyUncompared;
    /** What {@link #registerArray} registered in this run, by name: what a rollback may hand back to the rerun. */
    private final Map<String, Object> arrays = new HashMap<>();
    /**
     * The arrays the unwound body registered through {@link #registerArray}, kept across the rollback so the rerun
     * gets them back rather than allocating and collecting its state again; dropped once the rerun recovers or
     * snapshots (then only a body that no longer asks for one still holds it). The session of a rollback's engine
     * takes over its predecessor's.
     */
    private final KeptArrays kept;
    /** Null: this copy compares nothing (no twin at start, or --sdc off). */
    private final TwinComparison comparison;
    private final StateDigest stateDigest = new StateDigest();
    /** Between checkpoints the twins compare their sends this often (the computational copy's timer). */
    private final long sdcIntervalNanos;
    private long lastComparedNanos = System.nanoTime();
    /** How far this rank's output may be printed (a committed epoch's positions); null without output files. */
    private final VerifiedOutput verifiedOutput;
    private long nextEpoch;
    private boolean recovered;
    /** The last timer sequence this process has acted on. */
    private long dueActedOn;

    private CheckpointSession(Engine engine, KeptArrays kept) {
        this.engine = engine;
        this.kept = kept;
        this.incarnation = engine.incarnation();
        // numbered above whatever an earlier incarnation left in flight (fthp-run asked every coordinator)
        this.nextEpoch = incarnation.firstEpoch();
        this.killInEpoch = incarnation.restart() > 0 ? 0
                : CallKill.callFor(engine.nativeRank(), System.getenv(KILL_ENV));
        this.comparison = TwinComparison.of(engine);
        this.verifiedOutput = VerifiedOutput.forRank(engine.logicalRank(), engine.nativeRank());
        this.sdcIntervalNanos = sdcInterval();
        SendDigest digest = SendDigest.active();
        if (digest != null && digest.corruption() != null) {
            digest.corruption().stateFrom(this::comparedArrays);
        }
    }

    /** {@code FTHP_SDC_INTERVAL} seconds (fthp-run's --sdc-interval), {@link #DEFAULT_SDC_INTERVAL_SECONDS} if unset. */
    private static long sdcInterval() {
        String v = System.getenv(SDC_INTERVAL_ENV);
        double seconds = DEFAULT_SDC_INTERVAL_SECONDS;
        try {
            if (v != null && !v.isBlank()) {
                seconds = Double.parseDouble(v);
            }
        } catch (NumberFormatException e) {
            // fthp-run checked it; a hand-set wrong value keeps the default
        }
        return (long) (seconds * 1e9);
    }

    /** The primitive arrays registered for comparison, which an injected state corruption may hit. */
    private synchronized Object[] comparedArrays() {
        return registered.entrySet().stream()
                .filter(e -> !uncompared.contains(e.getKey()) && e.getValue().getClass().isArray())
                .map(Map.Entry::getValue).toArray();
    }

    static CheckpointSession of(Engine engine) {
        CheckpointSession s = current;
        if (s == null || s.engine != engine) {
            synchronized (CheckpointSession.class) {
                s = current;
                if (s == null || s.engine != engine) {
                    CheckpointSession before = s;
                    boolean rolledBack = before != null && engine.generation() > before.engine.generation();
                    s = new CheckpointSession(engine, rolledBack ? before.kept : new KeptArrays());
                    if (rolledBack) {
                        // a rollback in place: what the program registered before its resilient body stays
                        // registered (the body registering again replaces it by name)
                        before.carryOutsideBodyTo(s);
                    }
                    current = s;
                }
            }
        }
        return s;
    }

    /** The resilient body is entered: what is registered now was registered outside it (once, at the first entry). */
    synchronized void enteringBody() {
        if (outsideBody == null) {
            outsideBody = new LinkedHashMap<>(registered);
            outsideBodyUncompared = new HashSet<>(uncompared);
            outsideBodyUncompared.retainAll(outsideBody.keySet());
        }
    }

    /**
     * The body unwound for a rollback: its registrations are dropped at once, so nothing holds the old run's state
     * while the body allocates it again (a large array still live there is copied by the collector the new
     * allocation triggers, and the heap must hold both).
     */
    static void bodyUnwound() {
        CheckpointSession s = current;
        if (s != null) {
            synchronized (s) {
                for (Map.Entry<String, Object> e : s.arrays.entrySet()) {
                    // still registered by the body (one registered before the body stays registered anyway)
                    if (s.registered.get(e.getKey()) == e.getValue()
                            && (s.outsideBody == null || s.outsideBody.get(e.getKey()) != e.getValue())) {
                        s.kept.keep(e.getKey(), e.getValue());
                    }
                }
                s.arrays.clear();
                if (s.outsideBody != null) {
                    s.registered.clear();
                    s.registered.putAll(s.outsideBody);
                    s.uncompared.clear();
                    s.uncompared.addAll(s.outsideBodyUncompared);
                }
            }
        }
    }

    private synchronized void carryOutsideBodyTo(CheckpointSession next) {
        Map<String, Object> kept = outsideBody != null ? outsideBody : registered;
        next.registered.putAll(kept);
        next.uncompared.addAll(outsideBody != null ? outsideBodyUncompared : uncompared);
        next.uncompared.retainAll(kept.keySet());
        next.outsideBody = outsideBody == null ? null : new LinkedHashMap<>(outsideBody);
        next.outsideBodyUncompared = outsideBodyUncompared == null ? null : new HashSet<>(outsideBodyUncompared);
    }

    /**
     * The old run of the body can no longer write program memory (a rollback cancelled and completed its
     * operations): the arrays kept for the rerun are zeroed from now on, while the process waits for the others.
     */
    static void oldRunSettled() {
        CheckpointSession s = current;
        if (s != null) {
            s.kept.settled();
        }
    }

    synchronized void register(String name, Object state) {
        checkRegistration(name, state);
        registered.put(name, state);
        uncompared.remove(name);
        arrays.remove(name);
    }

    synchronized void registerUncompared(String name, Object state) {
        checkRegistration(name, state);
        registered.put(name, state);
        uncompared.add(name);
        arrays.remove(name);
    }

    /**
     * A zeroed array of {@code type} and {@code length}, registered under {@code name}: the one the unwound body
     * registered so (same type and length) when the body runs again after a rollback in place, else a new one.
     * Zeroing it leaves nothing of the unwound run in it; only {@code recover} fills it.
     */
    synchronized <A> A registerArray(String name, Class<A> type, int length) {
        checkArray(name, type, length);
        Object array = kept.take(name, type, length);
        if (array == null) {
            array = Array.newInstance(type.getComponentType(), length);
        }
        registered.put(name, array);
        uncompared.remove(name);
        arrays.put(name, array);
        return type.cast(array);
    }

    /** What {@link #registerArray} requires, checked alike with or without a session. */
    static void checkArray(String name, Class<?> type, int length) {
        if (name == null || name.isEmpty()) {
            throw new CheckpointException("a registered state needs a non-empty name");
        }
        if (type == null || !type.isArray() || !type.getComponentType().isPrimitive() || type == boolean[].class) {
            throw new CheckpointException("cannot register an array of '" + name + "': "
                    + (type == null ? "null" : type.getName()) + " is not an array of numbers or chars");
        }
        if (length < 0) {
            throw new CheckpointException("cannot register an array of '" + name + "': negative length " + length);
        }
    }

    /** The rerun has recovered or gone on without asking for some kept arrays: they are garbage from now on. */
    private void dropReusable() {
        kept.clear();
    }

    /** The program's next send or contribution to a collective differs legitimately between the twins. */
    void nextContributionUncompared() {
        SendDigest digest = SendDigest.active();
        if (digest != null) {
            digest.skipNext();
        }
    }

    /** What registering {@code state} under {@code name} requires, checked alike with or without a session. */
    static void checkRegistration(String name, Object state) {
        if (name == null || name.isEmpty()) {
            throw new CheckpointException("a registered state needs a non-empty name");
        }
        if (!supported(state)) {
            throw new CheckpointException("cannot checkpoint '" + name + "': "
                    + (state == null ? "null" : state.getClass().getName())
                    + " is not a primitive array, a ByteBuffer, a direct buffer or a Checkpointable");
        }
    }

    synchronized void unregister(String name) {
        registered.remove(name);
        uncompared.remove(name);
        arrays.remove(name);
    }

    synchronized boolean isRestart() {
        return incarnation.fromCheckpoint() && !recovered;
    }

    synchronized long nextEpoch() {
        return nextEpoch;
    }

    long lastCommittedEpoch() {
        CoordinatorClient client = engine.coordinatorClient();
        return client == null || !incarnation.checkpoints() ? -1 : client.lastCommittedEpoch();
    }

    private static boolean supported(Object state) {
        return state instanceof byte[] || state instanceof short[] || state instanceof char[]
                || state instanceof int[] || state instanceof long[] || state instanceof float[]
                || state instanceof double[] || state instanceof ByteBuffer || state instanceof Checkpointable
                || state instanceof Buffer b && b.isDirect();
    }

    // ---- recovery ----

    synchronized long recover() {
        if (!isRestart()) {
            return -1;
        }
        Gate gate = engine.gate();
        gate.enter();
        try {
            long epoch = incarnation.epoch();
            CoordinatorClient client = requireClient("recover a checkpoint");
            long t0 = System.nanoTime();
            PieceBytes piece;
            try {
                // the coordinator's own copy, mapped when it shares this host: no transfer, no copy but the decode
                piece = client.openPiece(epoch, engine.logicalRank(), TRANSFER_TIMEOUT);
            } catch (CheckpointTransferException e) {
                throw new CheckpointException("rank " + engine.logicalRank() + " cannot fetch its piece of epoch "
                        + epoch + ": " + e.getMessage(), e);
            }
            long fetched = System.nanoTime();
            try {
                PieceReader reader;
                try {
                    // the fetch checked every byte against the writer's checksum
                    reader = PieceReader.openChecked(piece.view());
                } catch (CorruptPieceException e) {
                    throw new CheckpointException("the piece of rank " + engine.logicalRank() + " at epoch " + epoch
                            + " is damaged: " + e.getMessage(), e);
                }
                for (Map.Entry<String, Object> e : registered.entrySet()) {
                    readInto(reader, e.getKey(), e.getValue());
                }
                RankOutput output = engine.output();
                if (output != null) {
                    output.resumeAt(new long[] {reader.stdoutPosition(), reader.stderrPosition()});
                }
            } finally {
                piece.release();
            }
            if (TRACE) {
                RuntimeMessages.say("fthp-checkpoint[" + engine.logicalRank() + "] recover epoch " + epoch + ": "
                        + piece.size() + " bytes, fetch " + (fetched - t0) / 1000 + " us, decode "
                        + (System.nanoTime() - fetched) / 1000 + " us");
            }
            recovered = true;
            dropReusable();
            return epoch;
        } finally {
            gate.exit();
        }
    }

    private static void readInto(PieceReader reader, String name, Object state) {
        if (reader.section(name).isEmpty()) {
            throw new CheckpointException("the checkpoint holds no state named '" + name + "' (it holds "
                    + reader.sections().keySet() + ")");
        }
        try {
            switch (state) {
                case byte[] a -> reader.readInto(name, a);
                case short[] a -> reader.readInto(name, a);
                case char[] a -> reader.readInto(name, a);
                case int[] a -> reader.readInto(name, a);
                case long[] a -> reader.readInto(name, a);
                case float[] a -> reader.readInto(name, a);
                case double[] a -> reader.readInto(name, a);
                case Checkpointable c -> reader.readInto(name, c);
                case Buffer b -> reader.readInto(name, bytesOf(b));
                default -> throw new IllegalStateException("registered " + state.getClass());
            }
        } catch (IllegalArgumentException | IOException e) {
            throw new CheckpointException("cannot recover '" + name + "': " + e.getMessage(), e);
        }
    }

    /** The bytes from the buffer's position to its limit, as a view that leaves the buffer's position alone. */
    private static ByteBuffer bytesOf(Buffer b) {
        if (b instanceof ByteBuffer bb) {
            return bb.duplicate();
        }
        return MemorySegment.ofBuffer(b).asByteBuffer().order(ByteOrder.nativeOrder());
    }

    // ---- snapshots ----

    synchronized boolean snapshot(boolean forced) {
        CoordinatorClient client = engine.coordinatorClient();
        if (client == null || !incarnation.checkpoints()) {
            // started without checkpoint storage (every rank alike): the program runs as without these calls
            return false;
        }
        dropReusable();
        Gate gate = engine.gate();
        gate.enter();
        try {
            long due = client.checkpointDueSequence();
            RankOutput output = engine.output();
            if (verifiedOutput != null && output != null) {
                verifiedOutput.committed(client.lastCommittedEpoch(), engine.role() == Role.CMP);
            }
            SendDigest digest = SendDigest.active();
            if (digest != null) {
                digest.pollCorruption();
            }
            boolean compareDue = comparison != null && System.nanoTime() - lastComparedNanos >= sdcIntervalNanos;
            engine.orphans().progress();
            // what the program started and has not completed (the engine's own background operations aside)
            boolean pending = engine.ops().inFlight().count() > engine.orphans().size();
            // bit 0: a checkpoint is due; bit 1: a twin comparison is (every rank then compares alike); bit 2: a
            // replica is due to be restored (every rank then waits for the checkpoint's commit)
            int[] all = engine.structures().allGatherInts(engine.world().get(),
                    (due > dueActedOn ? 1 : 0) | (compareDue ? 2 : 0) | (client.restorationDue() ? 4 : 0),
                    pending ? 1 : 0);
            dueActedOn = Math.max(dueActedOn, due);
            StringBuilder pendingRanks = new StringBuilder();
            boolean anyDue = false;
            boolean anyCompareDue = false;
            boolean restorationDue = false;
            for (int r = 0; r < all.length / 2; r++) {
                anyDue |= (all[2 * r] & 1) != 0;
                anyCompareDue |= (all[2 * r] & 2) != 0;
                restorationDue |= (all[2 * r] & 4) != 0;
                if (all[2 * r + 1] != 0) {
                    pendingRanks.append(pendingRanks.isEmpty() ? "" : ", ").append(r);
                }
            }
            if (!pendingRanks.isEmpty()) {
                throw new CheckpointException("a snapshot with nonblocking requests pending (rank(s) " + pendingRanks
                        + "): complete them before the safe point, a checkpoint of them would be inconsistent");
            }
            if (!forced && !anyDue) {
                if (anyCompareDue && comparison != null) {
                    lastComparedNanos = System.nanoTime();
                    comparison.compare(nextEpoch, -1);
                }
                return false;
            }
            long epoch = nextEpoch++;
            if (verifiedOutput != null && output != null) {
                verifiedOutput.taken(epoch, output.positions(), engine.role() == Role.CMP);
            }
            boolean verified = true;
            if (comparison != null) {
                // both copies hash their state; the piece is written only once the twins agreed
                lastComparedNanos = System.nanoTime();
                verified = comparison.compare(epoch, stateDigest.of(registered, uncompared));
            }
            if (engine.role() == Role.CMP && verified) {
                write(client, epoch);
            }
            if (restorationDue) {
                RestorationWait.awaitCommit(engine, client, epoch, TRACE);
            }
            return true;
        } finally {
            gate.exit();
        }
    }

    /**
     * The resilient body returned (Resilience), before the process leaves it: where a difference between twins may
     * roll the job back in place, the twins compare what they sent since their last comparison (both waiting), and
     * every process then waits for every other (an all-gather on COMM_WORLD) before any leaves its body. A copy that
     * finds a difference never joins that wait, so the whole job is still inside its bodies when the rollback comes:
     * a difference in the last stretch of the body rolls back in place like any other, where the comparison at
     * MPI_Finalize, outside every body, could only relaunch. A repair that interrupts this comparison leaves that
     * stretch to MPI_Finalize's.
     */
    void bodyReturned() {
        if (!engine.running() || !TwinComparison.mayRollBackInPlace(engine)) {
            return;   // a body that finalized MPI itself has nothing left to compare here
        }
        Gate gate = engine.gate();
        gate.enter();
        try {
            if (comparison != null) {
                lastComparedNanos = System.nanoTime();
                // both copies wait: a computational copy must not go on to the all-gather, which its twin (the
                // replica follows its collectives) would not hold back
                comparison.compareBothWaiting(nextEpoch);
            }
            engine.structures().allGatherInts(engine.world().get(), 0);
        } finally {
            gate.exit();
        }
    }

    /**
     * This rank's piece of {@code epoch} to the coordinators. A refusal or a
     * timeout leaves the epoch uncommitted (the previous one stays the one a
     * restart uses) and is said on stderr; it does not end the program, whose
     * other ranks went on past this call.
     */
    private void write(CoordinatorClient client, long epoch) {
        long t0 = System.nanoTime();
        RankOutput output = engine.output();
        long[] at = output == null ? new long[2] : output.positions();
        PieceWriter piece = new PieceWriter(engine.logicalRank(), epoch, at[0], at[1]);
        for (Map.Entry<String, Object> e : registered.entrySet()) {
            add(piece, e.getKey(), e.getValue());
        }
        long[] encoded = new long[1];
        try {
            // encoded straight into the shared-memory file the coordinator takes over by name
            client.putPiece(epoch, engine.logicalRank(), piece.encodedBytes(), into -> {
                int crc = piece.encodeInto(into);
                encoded[0] = System.nanoTime();
                if (epoch == killInEpoch) {
                    Fatal.dieAsFailed("native rank " + engine.nativeRank() + " kills itself writing its piece of"
                            + " checkpoint " + epoch + " (" + KILL_ENV + ")");
                }
                return crc;
            }, TRANSFER_TIMEOUT);
            long held = System.nanoTime();
            client.reportCheckpointCost(epoch, engine.logicalRank(), held - t0);
            if (TRACE) {
                RuntimeMessages.say("fthp-checkpoint[" + engine.logicalRank() + "] epoch " + epoch + ": "
                        + piece.encodedBytes() + " bytes, encode " + (encoded[0] - t0) / 1000 + " us, hand-off "
                        + (held - encoded[0]) / 1000 + " us");
            }
        } catch (CheckpointTransferException e) {
            RuntimeMessages.say("fthp: rank " + engine.logicalRank() + " could not store its piece of checkpoint "
                    + epoch + " (the epoch will not commit): " + e.getMessage());
        }
    }

    private static void add(PieceWriter piece, String name, Object state) {
        switch (state) {
            case byte[] a -> piece.add(name, a);
            case short[] a -> piece.add(name, a);
            case char[] a -> piece.add(name, a);
            case int[] a -> piece.add(name, a);
            case long[] a -> piece.add(name, a);
            case float[] a -> piece.add(name, a);
            case double[] a -> piece.add(name, a);
            case Checkpointable c -> piece.add(name, c);
            case Buffer b -> piece.add(name, bytesOf(b));
            default -> throw new IllegalStateException("registered " + state.getClass());
        }
    }

    private CoordinatorClient requireClient(String what) {
        CoordinatorClient client = engine.coordinatorClient();
        if (client == null) {
            throw new CheckpointException("cannot " + what + ": this job has no coordinators");
        }
        return client;
    }
}

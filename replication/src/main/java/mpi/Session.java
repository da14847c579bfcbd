package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.replication.failure.BlockingCalls;
import org.fthp.replication.failure.CoordinatorLink;
import org.fthp.replication.log.Acknowledgements;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.log.RunStatistics;
import org.fthp.replication.output.ReplicaOutput;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.routing.Role;
import org.fthp.replication.structure.NativeComms;
import org.fthp.replication.ops.ControlSend;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.CommStructure;

/**
 * Process-wide state of the facade between {@code MPI.Init} and
 * {@code MPI.Finalize}: the native library, the staging pool and the
 * structures behind COMM_WORLD and COMM_SELF.
 */
final class Session {

    static final int WORLD_ID = 1;
    static final int SELF_ID = 2;

    private static volatile boolean initialized;
    private static volatile boolean finalized;
    private static int threadLevel;
    private static Thread mainThread;
    private static StagingPool pool;
    private static CoordinatorLink coordinator;
    private static ReplicaLayout layout;
    private static int nativeRank;
    private static int logicalRank;
    private static Role role = Role.CMP;
    private static MessageRecords records;
    private static final OrphanRequests ORPHANS = new OrphanRequests();
    private static final LiveComms LIVE_COMMS = new LiveComms();
    /** Native COMM_WORLD's duplicate for the facade's bookkeeping: repair agreement, acknowledgements (0 without replicas). */
    private static long controlComm;
    private static RepairThread repairThread;

    private Session() {}

    static synchronized int init(int required) throws MPIException {
        if (initialized) {
            throw Errors.error(MPI.ERR_OTHER, "MPI is already initialized.");
        }
        try {
            Empi.load();
        } catch (EmpiException e) {
            throw Errors.error(MPI.ERR_OTHER, "cannot use the native MPI library: " + e.getMessage());
        }
        pool = new StagingPool(Empi.HANDLE_BYTES, Empi.STATUS_BYTES);
        int provided;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
            // at least SERIALIZED natively: the repair thread calls the library while the program computes
            Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, Math.max(required, MPI.THREAD_SERIALIZED), out);
            provided = out.get(ValueLayout.JAVA_INT, 0);
            Empi.commSetErrhandler(Empi.COMM_WORLD, Empi.ERRORS_RETURN);
            Empi.commSetErrhandler(Empi.COMM_SELF, Empi.ERRORS_RETURN);
            Empi.commRank(Empi.COMM_WORLD, out);
            nativeRank = out.get(ValueLayout.JAVA_INT, 0);
            Empi.commSize(Empi.COMM_WORLD, out);
            int nativeSize = out.get(ValueLayout.JAVA_INT, 0);
            layout = JobLayout.fromEnvironment(nativeSize);
            ReplicaLayout.Copy me = layout.copyOf(nativeRank);
            logicalRank = me.logical();
            role = me.role();
            records = MessageRecords.create(layout.replicas() > 0);
            try {
                if (role == Role.REP) {
                    ReplicaOutput.install(logicalRank, JobLayout.showReplicaOutput());
                } else if (layout.hasReplica(logicalRank)) {
                    ReplicaOutput.installComputational(logicalRank);
                }
            } catch (java.io.IOException e) {
                throw Errors.error(MPI.ERR_OTHER, "cannot set up the output of rank " + logicalRank + ": "
                        + e.getMessage());
            }
            MPI.COMM_WORLD.bind(Structures.world(WORLD_ID));
            MPI.COMM_SELF.bind(layout.hasReplica(logicalRank)
                    ? Structures.intra(SELF_ID, new int[] {logicalRank})
                    : new CommStructure(SELF_ID, 0, new int[] {logicalRank}, null, Role.CMP,
                            ReplicaLayout.ofMembers(new boolean[1]), 0, 0,
                            NativeComms.unreplicated(Empi.COMM_SELF, Structures.idup(Empi.COMM_SELF), Empi.COMM_SELF,
                                    new int[] {nativeRank()})));
            org.fthp.replication.ops.CollectiveLog.progressWith(ORPHANS::adopt);
            org.fthp.replication.ops.CollectiveLog.keepEntries(layout.replicas() > 0);
            LIVE_COMMS.add(MPI.COMM_WORLD);
            LIVE_COMMS.add(MPI.COMM_SELF);
            if (layout.replicas() > 0) {
                controlComm = Structures.dupBlocking(Empi.COMM_WORLD);
                Acknowledgements acks = new Acknowledgements(records.sendLog(), controlComm, new AckPeers(),
                        (to, comm, rank, through) -> ORPHANS.adopt(
                                ControlSend.send(pool, controlComm, to, Acknowledgements.TAG, comm, rank, through)));
                records.acknowledgeWith(acks);
                org.fthp.replication.structure.TwinLink.acknowledgeWith(acks::twinReceived);
            }
            coordinator = connectCoordinator(nativeRank, nativeSize);
            if (coordinator != null && layout.replicas() > 0) {
                Repair.warmUp();
                if (provided >= MPI.THREAD_SERIALIZED) {
                    repairThread = RepairThread.start(coordinator.watch());
                }
            }
            RunStatistics.markReady(nativeRank);
        } catch (EmpiException e) {
            throw Errors.from(e);
        }
        // the facade's own state (send ids, collective sequences, pools' shared stacks aside) is
        // not guarded for concurrent calls: promise no more than one thread at a time
        threadLevel = Math.min(provided, Math.min(Math.max(required, MPI.THREAD_SINGLE), MPI.THREAD_SERIALIZED));
        mainThread = Thread.currentThread();
        try {
            Gate.killAtCall(nativeRank, org.fthp.replication.failure.CallKill.callFor(nativeRank,
                    System.getenv(org.fthp.replication.failure.CallKill.ENV)));
            BlockingCalls.killAtEntry(nativeRank, org.fthp.replication.failure.CallKill.callFor(nativeRank,
                    System.getenv(BlockingCalls.KILL_ENV)));
        } catch (IllegalArgumentException e) {
            throw Errors.error(MPI.ERR_OTHER, e.getMessage());
        }
        initialized = true;
        return threadLevel;
    }

    private static CoordinatorLink connectCoordinator(int rank, int size) throws MPIException {
        try {
            return CoordinatorLink.connectIfConfigured(rank, size, logicalRank, role == Role.REP);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Errors.error(MPI.ERR_OTHER, "interrupted while connecting to the coordinator");
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            throw Errors.error(MPI.ERR_OTHER, "cannot reach this node's coordinator: " + e);
        }
    }

    static synchronized void finish() throws MPIException {
        if ("1".equals(System.getenv("FTHP_REPORT_CALLS"))) {
            // where a --kill R#CALL can aim: this Finalize is the last of them
            org.fthp.replication.output.RuntimeMessages.say("fthp: native rank " + nativeRank + " made "
                    + Gate.entries() + " MPI calls");
        }
        try {
            System.out.flush();
            System.err.flush();
            if (controlComm != 0) {
                // replicated: wait here, repairing, until nobody can need this process in a repair
                FinalizeBarrier.await();
            }
            if (repairThread != null) {
                repairThread.stop();
            }
            // unreplicated: a freed request must still complete, however long it takes
            ORPHANS.drain(controlComm != 0 ? 2_000_000_000L : Long.MAX_VALUE);
            var watch = failureWatch();
            RunStatistics.write(nativeRank, logicalRank, role == Role.REP, records,
                    watch == null ? 0 : watch.latest().deadNativeRanks().size(), Repair.times().promoted(),
                    Repair.times().repairs().stream().map(r -> r.totalNanos() / 1000).toList());
            if (coordinator != null) {
                coordinator.finish();
                coordinator = null;
            }
            Empi.finalizeMpi();
        } catch (EmpiException e) {
            throw Errors.from(e);
        } finally {
            finalized = true;
        }
    }

    static boolean isInitialized() { return initialized; }
    static boolean isFinalized() { return finalized; }
    static int threadLevel() { return threadLevel; }
    static Thread mainThread() { return mainThread; }
    static StagingPool pool() { return pool; }
    static MessageRecords records() { return records; }

    /** Which native process holds each copy of each logical rank. */
    static ReplicaLayout layout() { return layout; }
    static int logicalRank() { return logicalRank; }
    static Role role() { return role; }
    static OrphanRequests orphans() { return ORPHANS; }
    static LiveComms liveComms() { return LIVE_COMMS; }
    static int nativeRank() { return nativeRank; }
    static long controlComm() { return controlComm; }

    /** The coordinators' failure announcements, or null when the job has no coordinators. */
    static org.fthp.replication.failure.FailureWatch failureWatch() {
        CoordinatorLink c = coordinator;
        return c == null ? null : c.watch();
    }

    /** After a repair: who holds which copy now, and this process's role (a promoted replica computes). */
    static void adopt(ReplicaLayout repaired) {
        ReplicaLayout.Copy me = repaired.copyOf(nativeRank);
        layout = repaired;
        if (role == Role.REP && me.role() == Role.CMP) {
            ReplicaOutput.promote();
        }
        role = me.role();
    }

    /**
     * What every progress loop does between polls: advance orphaned
     * operations, and repair if the coordinators announced a failure.
     */
    static void progress() {
        ORPHANS.progress();
        Acknowledgements acks = records.acknowledgements();
        if (acks != null) {
            acks.progress();
        }
        if (Repair.pending()) {
            if (CommCreation.active()) {
                // no repair in the middle of making native communicators: the creation is abandoned instead
                CommCreation.failureArrived();
            } else {
                Repair.run();
            }
        }
    }

    /** The computational copy's clock, on both twins: control flow that depends on time stays the same. */
    static double wtime() {
        double local = Empi.wtime();
        return Double.longBitsToDouble(Twins.share(Twins.world(), Double.doubleToRawLongBits(local)));
    }

    static double wtick() {
        return Empi.wtick();
    }

    static String processorName() throws MPIException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocate(Empi.MAX_PROCESSOR_NAME + 1);
            MemorySegment len = a.allocate(ValueLayout.JAVA_INT);
            Empi.getProcessorName(name, len);
            return Twins.share(Twins.world(), name.getString(0));
        } catch (EmpiException e) {
            throw Errors.from(e);
        }
    }

    static String libraryVersion() {
        try {
            var abi = Empi.load();
            return "FTHP-J over " + abi.family() + " " + abi.version();
        } catch (EmpiException e) {
            return "FTHP-J (native MPI unavailable: " + e.getMessage() + ")";
        }
    }

    /**
     * The send log is over its limit: wait until acknowledgements trim it
     * (after a blocking send, which MPI allows to wait for its receiver).
     */
    static void awaitLogRoom() {
        IdleStrategy idle = new IdleStrategy();
        idle.reset();
        while (records.overLimit()) {
            progress();
            idle.idle();
        }
    }

    /** The live copies of a peer, from the current layout, for acknowledgements. */
    private static final class AckPeers implements Acknowledgements.Peers {
        @Override
        public int[] copies(int commId, int peer) {
            CommStructure s = LIVE_COMMS.byId(commId);
            if (s == null) {
                return null;
            }
            int[] group = s.isInter() ? s.remoteWorldRanks() : s.worldRanks();
            if (peer < 0 || peer >= group.length) {
                return null;
            }
            int world = group[peer];
            return layout.hasReplica(world) ? new int[] {layout.cmpNative(world), layout.repNative(world)}
                    : new int[] {layout.cmpNative(world)};
        }

        @Override
        public int selfRank(int commId) {
            CommStructure s = LIVE_COMMS.byId(commId);
            return s == null ? -1 : s.rank();
        }

        @Override
        public int computationalTwin() {
            return role == Role.REP ? layout.cmpNative(logicalRank) : -1;
        }

        @Override
        public void twinReceived(int commId, long through) {
            CommStructure s = LIVE_COMMS.byId(commId);
            if (s != null) {
                s.twinRecords().trimThrough(through);
            }
        }
    }

    /** Progresses {@code op} until it completes, idling politely between polls. */
    static void await(NativeOp op) {
        if (op.poll()) {
            return;
        }
        IdleStrategy idle = new IdleStrategy();
        idle.reset();
        while (!op.poll()) {
            progress();
            idle.idle();
        }
    }
}

package org.fthp.replication.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;
import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.replication.collective.InlineAllreduce;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.creation.BlockingCallEntry;
import org.fthp.replication.creation.CommCreation;
import org.fthp.replication.creation.CommRelease;
import org.fthp.replication.creation.ControlComms;
import org.fthp.replication.creation.GenerationEntry;
import org.fthp.replication.creation.StructureBuilder;
import org.fthp.replication.datatype.RecentBuffers;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.failure.BlockingCalls;
import org.fthp.replication.failure.CallKill;
import org.fthp.replication.failure.Coordination;
import org.fthp.replication.failure.CoordinatorLink;
import org.fthp.replication.failure.FailureWatch;
import org.fthp.replication.failure.Fatal;
import org.fthp.replication.failure.SpareLink;
import org.fthp.replication.log.Acknowledgements;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.log.RunStatistics;
import org.fthp.replication.ops.ControlSend;
import org.fthp.replication.ops.InFlight;
import org.fthp.replication.ops.InlineTransfer;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.OrphanRequests;
import org.fthp.replication.ops.ShallowTransfer;
import org.fthp.replication.output.RankOutput;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.progress.BackoffIdleStrategy;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.repair.FinalizeBarrier;
import org.fthp.replication.repair.Repair;
import org.fthp.replication.routing.Membership;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.CommIds;
import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.LiveComms;
import org.fthp.replication.structure.OpenPorts;
import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.sdc.SendDigest;
import org.fthp.replication.tags.TagBound;

/**
 * The engine of one process between {@code MPI_Init} and {@code
 * MPI_Finalize}: every piece of process-wide state, built once at init and
 * handed to the parts that need it (docs/DESIGN.md §15). It is the one context:
 * its constructor builds the parts in order, each given in its constructor what
 * it uses (no part holds the engine); what a repair changes lives in the
 * {@link Membership} they share. Its {@link #doWork} is the duty cycle's turn.
 * The {@code mpi} facade reaches it through {@link #get()}, the one static of
 * the engine.
 *
 * <p>Only the thread holding the {@link Gate} touches it (the program's
 * thread inside an MPI call, or the repair thread while the program computes
 * outside MPI); the coordinators' thread only hands over failure sets through
 * the {@link FailureWatch}.
 */
public final class Engine {

    /** The running engine: set at init, kept (finished) after Finalize so the facade can tell. */
    private static volatile Engine current;

    private final int nativeRank;
    private final int nativeSize;
    private final int logicalRank;
    /** Who holds which copy and this process's role: the repair changes them, the other parts read them. */
    private final Membership membership;
    private final int threadLevel;
    private final Thread mainThread;
    private final StagingPool pool;
    private final OpContext ops;
    private final MessageRecords records;
    /**
     * A job without replicas: its small blocking sends and receives, and its small allreduces, done without
     * operation objects.
     */
    private final InlineTransfer inline;
    private final InlineAllreduce inlineAllreduce;
    private final Gate gate = new Gate();
    private final BlockingCalls blockingCalls;
    private final OrphanRequests orphans = new OrphanRequests();
    private final RecentBuffers recentBuffers = new RecentBuffers();
    private final LiveComms comms = new LiveComms();
    private final CommRef world = new CommRef(null);
    private final CommRef self = new CommRef(null);
    /**
     * The engine's own messages (repair, acknowledgements, creation and Finalize rounds): this generation's control
     * communicator, NONE without replicas.
     */
    private final ControlComm controlComm;
    private final DutyCycle duty;
    private final StructureBuilder structures;
    private final CommCreation creation;
    private final CommRelease release;
    private final OpenPorts ports;
    private final Repair repair;
    private final Twins twins;
    private final BufferedSends bufferedSends;
    /** Every send and receive of the program: the one entry of point-to-point. */
    private final PointToPoint pointToPoint;
    private final FinalizeBarrier finalizeBarrier;
    /** The link to the coordinators, once start-up connected it. */
    private final Coordination coordination = new Coordination();
    /** Which run of the job this is: the first, a restart (from a checkpoint or the beginning), or a rollback. */
    private final Incarnation incarnation;
    /**
     * How many rollbacks in place the job had when this engine was built (0: none): an engine of an earlier
     * generation is abandoned, and handles made in it are stale.
     */
    private final int generation;
    /** Whether this process was a spare that took a lost rank in this generation. */
    private final boolean replacement;
    /** A replacement: the failure set its rollback reflects (set before start-up). */
    private long replacedAfterFailureEpoch;
    /** Told of every engine a rollback builds (the facade re-attaches its predefined communicators). */
    private static volatile Consumer<Engine> rebuilt = e -> { };
    /** Where this copy's stdout and stderr go when fthp-run relays the rank's output; null otherwise. */
    private final RankOutput output;
    private RepairThread repairThread;
    /** How the program ends the job if it does not reach Finalize (an uncaught exception, exit, abort). */
    private ProgramEnd programEnd;
    private volatile boolean finished;
    /** The program's tag bound and the engine's twin slots under the native library's tag bound. */
    private final TagBound tagBound;

    private Engine(int nativeRank, int nativeSize, ReplicaLayout layout, int threadLevel, StagingPool pool,
                   ControlComm controlComm, BlockingCalls blockingCalls, TagBound tagBound, boolean withSpares,
                   Incarnation incarnation, RankOutput output, int generation, boolean replacement) {
        this.nativeRank = nativeRank;
        this.incarnation = incarnation;
        this.generation = generation;
        this.replacement = replacement;
        this.tagBound = tagBound;
        this.nativeSize = nativeSize;
        this.blockingCalls = blockingCalls;
        this.membership = new Membership(nativeRank, layout);
        this.logicalRank = membership.logicalRank();
        this.output = output;
        this.threadLevel = threadLevel;
        this.mainThread = Thread.currentThread();
        this.pool = pool;
        this.controlComm = controlComm;
        boolean replicated = layout.replicas() > 0;
        this.records = MessageRecords.create(replicated);
        // with replicas, pull memory keeps as many idle pages as the log may hold: acknowledgements free dozens
        // of entries at once, and the next messages would fault every page in again (staging.PullMemory). Twice
        // the limit: entries round up to their size class (a 4 MiB message takes 5 MiB), and sends the
        // program does not wait for pass the limit
        this.ops = new OpContext(pool, replicated, orphans::adopt, replicated ? 2 * MessageRecords.LOG_LIMIT_BYTES : 0);
        this.inline = new InlineTransfer(ops, records);
        this.duty = new DutyCycle(this::doWork, BackoffIdleStrategy::new);
        this.inlineAllreduce = new InlineAllreduce(ops, duty);
        this.creation = new CommCreation(membership, controlComm, coordination, duty);
        this.structures = new StructureBuilder(membership, ops, records, blockingCalls, duty, creation,
                tagBound.twinSlots(), withSpares, controlComm);
        this.release = new CommRelease(nativeRank, controlComm, coordination, comms, ops, structures, duty);
        this.ports = new OpenPorts(logicalRank);
        this.repair = new Repair(membership, ops, records, orphans, comms, controlComm, coordination, structures,
                release, output);
        this.finalizeBarrier = new FinalizeBarrier(repair, membership, controlComm, duty);
        this.twins = new Twins(ops, orphans, duty, world, this::running);
        this.bufferedSends = new BufferedSends(ops, orphans, duty, twins);
        this.pointToPoint = new PointToPoint(ops, records, inline, orphans, duty, bufferedSends,
                ShallowTransfer.of(ops, records, replicated), recentBuffers);
    }

    /** The running (or finished) engine; null before {@code MPI_Init}. */
    public static Engine get() {
        return current;
    }

    /** What the native library's tag bound leaves to the program and to the engine's own tags. */
    public TagBound tagBound() {
        return tagBound;
    }

    /** The running engine's gate; null before {@code MPI_Init}, after {@code MPI_Finalize} or once finished. */
    public static Gate runningGate() {
        Engine e = current;
        return e == null || e.finished ? null : e.gate;
    }

    public static boolean isInitialized() {
        return current != null;
    }

    public static boolean isFinalized() {
        Engine e = current;
        return e != null && e.finished;
    }

    /**
     * {@code MPI_Init_thread}: loads the native library, initialises it so
     * that calls from several threads one at a time are safe (the repair
     * thread calls it while the program computes; the gate lets one thread
     * in at a time), builds COMM_WORLD's and COMM_SELF's structures and
     * connects to the coordinators. Returns the engine; {@link
     * #threadLevel()} is what the program was granted: at most
     * {@code MPI_THREAD_SERIALIZED}, whatever the native level.
     *
     * <p>The native level is {@link #nativeThreadLevel}: the program's
     * required level never goes to the native library, which the gate
     * already serialises.
     */
    public static synchronized Engine start(int required, int serialized, int single) {
        if (current != null) {
            throw new MpiError(MpiError.ERR_OTHER, "MPI is already initialized.");
        }
        try {
            Empi.load();
        } catch (EmpiException e) {
            throw new MpiError(MpiError.ERR_OTHER, "cannot use the native MPI library: " + e.getMessage());
        }
        try {
            StagingPool pool = new StagingPool(Empi.HANDLE_BYTES, Empi.STATUS_BYTES);
            int provided;
            int nativeRank;
            int nativeSize;
            TagBound tagBound;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
                int asked = nativeThreadLevel(single, serialized);
                Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, asked, out);
                int given = out.get(ValueLayout.JAVA_INT, 0);
                // a library that is safe at SINGLE for calls the gate serialises serves them as SERIALIZED would
                provided = asked == single && given == single ? serialized : given;
                Empi.commSetErrhandler(Empi.COMM_WORLD, Empi.ERRORS_RETURN);
                Empi.commSetErrhandler(Empi.COMM_SELF, Empi.ERRORS_RETURN);
                Empi.commRank(Empi.COMM_WORLD, out);
                nativeRank = out.get(ValueLayout.JAVA_INT, 0);
                Empi.commSize(Empi.COMM_WORLD, out);
                nativeSize = out.get(ValueLayout.JAVA_INT, 0);
                tagBound = TagBound.of(Empi.tagUpperBound());
            } catch (IllegalStateException e) {
                throw new MpiError(MpiError.ERR_OTHER, "cannot use the native MPI library: " + e.getMessage());
            }
            ReplicaLayout layout = JobLayout.fromEnvironment(nativeSize);
            // the engine's own state (send ids, collective sequences, pools' shared stacks aside) is not
            // guarded for concurrent calls: promise no more than one thread at a time
            int level = Math.min(provided, Math.min(Math.max(required, single), serialized));
            ControlComm control = layout.replicas() > 0 ? ControlComms.atLaunch() : ControlComm.NONE;
            BlockingCalls blockingCalls = new BlockingCalls(nativeRank);
            int programProcesses = layout.size() + layout.replicas();
            Incarnation incarnation = Incarnation.fromEnvironment();
            int generation = 0;
            long replacedAfter = 0;
            boolean replacement = nativeRank >= programProcesses;
            Supplier<CoordinatorLink> link = null;
            RollbackTrace trace = null;
            Spare.Taken taken = null;
            if (replacement) {
                // after the one collective over the whole native world every process makes at start
                taken = Spare.live(nativeRank, nativeSize, nativeRank - programProcesses);
                SpareLink spare = taken.link();
                trace = RollbackTrace.of(nativeRank);
                trace.mark("assigned");
                Message.Rollback role = spare.role();
                CallKill.inRollback(nativeRank, role.generation());
                // registered as the rank's copy before its spare's connection ends (whose loss until then is also
                // that rank's failure), so that it hears a rollback that supersedes this one; the registration runs
                // beside the readiness round and the generation's creations, which the survivors would otherwise
                // wait in for it
                ReplicaLayout given = ReplicaLayout.of(role.cmpNatives(), role.repNatives());
                long epoch = role.epoch();
                FutureTask<CoordinatorLink> registering = new FutureTask<>(() -> {
                    CoordinatorLink registered = connectCoordinator(nativeRank, nativeSize,
                            given.copyOf(nativeRank).logical(), given.copyOf(nativeRank).role(), blockingCalls);
                    if (registered != null) {
                        // the piece the body will recover comes while the job rebuilds
                        registered.prefetchPiece(epoch);
                    }
                    // registered as the rank's copy: the spare's connection ends here, not on the main thread
                    // between the world's creations and the body, which every survivor waits for
                    spare.finish();
                    return registered;
                });
                Thread.ofPlatform().daemon().name("fthp-spare-registration").start(registering);
                role = RollbackReadiness.settle(role, nativeRank,
                        () -> registering.isDone() ? registered(registering).latestRollback() : null);
                trace.mark("ready");
                RollbackTrace steps = trace;
                link = () -> {
                    CoordinatorLink registered = registered(registering);
                    steps.mark("linked");
                    return registered;
                };
                layout = ReplicaLayout.of(role.cmpNatives(), role.repNatives());
                incarnation = incarnation.rolledBack(role.epoch(), role.firstEpoch());
                generation = role.generation();
                replacedAfter = role.failureEpoch();
                if (control.exists()) {
                    // with the survivors, at the same point of their rollback (Engine#rollBack)
                    control = ControlComms.ofGeneration(layout, nativeSize, generation, blockingCalls);
                }
                trace.mark("control");
            }
            RankOutput output = installOutput(new Membership(nativeRank, layout), incarnation);
            Engine e = new Engine(nativeRank, nativeSize, layout, level, pool, control, blockingCalls, tagBound,
                    nativeSize > programProcesses, incarnation, output, generation, replacement);
            e.replacedAfterFailureEpoch = replacedAfter;
            if (required > serialized) {
                // granted SERIALIZED, but a program that asked for MULTIPLE may still call from two threads at once:
                // the gate keeps such calls one at a time, as it does for the repair thread
                e.gate.share();
            }
            if (trace != null) {
                trace.mark("engine");
            }
            e.startUp(provided >= serialized, link);
            if (trace != null) {
                trace.mark("world");
                trace.print();
            }
            if (taken != null) {
                taken.traced(nativeRank);
            }
            current = e;
            return e;
        } catch (EmpiException e) {
            throw new MpiError(e.errorClass() >= 0 ? e.errorClass() : MpiError.ERR_INTERN, e.getMessage(), e);
        }
    }

    /**
     * The thread level the native library is initialised with: {@code MPI_THREAD_SINGLE} where every higher level
     * only adds locks to each call ({@link Empi#locksAboveThreadSingle}, Open MPI), else
     * {@code MPI_THREAD_SERIALIZED}. {@code -Dfthp.native.threadLevel=serialized} asks for SERIALIZED anyway (to
     * measure the difference, or should a library's SINGLE mode ever mind which thread calls it).
     */
    static int nativeThreadLevel(int single, int serialized) {
        if ("serialized".equals(System.getProperty("fthp.native.threadLevel"))) {
            return serialized;
        }
        return Empi.locksAboveThreadSingle() ? single : serialized;
    }

    /** Where this copy's output goes; null when it prints straight through mpirun. */
    private static RankOutput installOutput(Membership me, Incarnation incarnation) {
        int logicalRank = me.logicalRank();
        try {
            if (me.role() == Role.REP) {
                return RankOutput.installReplica(logicalRank, JobLayout.showReplicaOutput(),
                        incarnation.outputStart());
            } else if (me.layout().hasReplica(logicalRank) || incarnation.checkpoints()) {
                // a replicated rank hands its output over at a promotion, a job with checkpoints at a restart
                return RankOutput.installComputational(logicalRank, incarnation.outputStart());
            }
            return null;
        } catch (java.io.IOException e) {
            throw new MpiError(MpiError.ERR_OTHER, "cannot set up the output of rank " + logicalRank + ": "
                    + e.getMessage());
        }
    }

    /** The link {@code registering} made; its failure as the MpiError it was. */
    private static CoordinatorLink registered(FutureTask<CoordinatorLink> registering) {
        try {
            return registering.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(MpiError.ERR_OTHER, "interrupted while connecting to the coordinator");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new MpiError(MpiError.ERR_OTHER, "cannot reach this node's coordinator: " + e.getCause());
        }
    }

    /** {@code connected}: a replacement's link, registering while its communicators are made; else null. */
    private void startUp(boolean repairThreadAllowed, Supplier<CoordinatorLink> connected) {
        buildWorld();
        CoordinatorLink coordinator = connected != null ? connected.get()
                : connectCoordinator(nativeRank, nativeSize, logicalRank, membership.role(), blockingCalls);
        coordination.connected(coordinator);
        // the engine running now: after a rollback in place another engine than this one
        programEnd = ProgramEnd.install(membership, mainThread, () -> {
            Engine now = current;
            return now == null ? running() : now.running();
        }, coordinator);
        if (coordinator != null) {
            coordinator.onRollback(this::rollbackAnnounced);
            if (replacement) {
                // the failures up to the rollback's are reflected in this spare's layout (their set may reach
                // this new connection later)
                membership.applied(replacedAfterFailureEpoch);
            }
        }
        if (coordinator != null && replicated()) {
            repair.warmUp();
            if (repairThreadAllowed) {
                repairThread = RepairThread.start(repair, gate, coordinator.watch());
            }
        }
        if (replacement) {
            // a spare that restored a replica compares with its twin from the body's start, as the twin does
            SendDigest.install(SendDigest.restarted(null,
                    replicated() && membership.layout().hasReplica(logicalRank)));
            return;
        }
        RunStatistics.markReady(nativeRank);
        try {
            gate.killAtCall(nativeRank, CallKill.callFor(nativeRank, System.getenv(CallKill.ENV)));
            SendDigest.install(SendDigest.forProcess(nativeRank,
                    replicated() && membership.layout().hasReplica(logicalRank), incarnation.restart() == 0,
                    gate::entries));
            blockingCalls.killAtEntry(CallKill.callFor(nativeRank, System.getenv(BlockingCalls.KILL_ENV)));
        } catch (IllegalArgumentException e) {
            throw new MpiError(MpiError.ERR_OTHER, e.getMessage());
        }
    }

    /** COMM_WORLD's and COMM_SELF's structures, and with replicas the acknowledgements over the control comm. */
    private void buildWorld() {
        BlockingCallEntry entry = generation > 0 && controlComm.exists()
                ? new GenerationEntry(controlComm, nativeRank) : BlockingCallEntry.NONE;
        world.repoint(structures.world(CommIds.WORLD, entry));
        self.repoint(structures.self(CommIds.SELF));
        comms.add(world);
        comms.add(self);
        if (replicated()) {
            Acknowledgements acks = new Acknowledgements(records.sendLog(), controlComm,
                    new AckPeers(comms, membership),
                    (to, comm, rank, through) -> orphans.adopt(
                            ControlSend.send(ops, controlComm, to, InternalTags.ACKNOWLEDGEMENT.first(), comm, rank,
                                    through)));
            records.acknowledgeWith(acks);
            ops.acknowledgeTwinWith(acks::twinReceived);
        }
    }

    private static CoordinatorLink connectCoordinator(int nativeRank, int nativeSize, int logicalRank, Role role,
                                                      BlockingCalls blockingCalls) {
        try {
            return CoordinatorLink.connectIfConfigured(nativeRank, nativeSize, logicalRank, role == Role.REP,
                    blockingCalls);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(MpiError.ERR_OTHER, "interrupted while connecting to the coordinator");
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            throw new MpiError(MpiError.ERR_OTHER, "cannot reach this node's coordinator: " + e);
        }
    }

    /**
     * How long a coordinated process waits in a native MPI_Finalize that cannot survive a dead peer (MPICH's) before
     * it goes without: far above its normal length (tens of milliseconds), short against a job's timeout.
     */
    private static final long NATIVE_FINALIZE_BOUND_MILLIS = 10_000;

    /** {@code MPI_Finalize}, with the gate held. */
    public synchronized void finish() {
        if ("1".equals(System.getenv("FTHP_REPORT_CALLS"))) {
            // where a --kill R#CALL can aim: this Finalize is the last of them
            RuntimeMessages.say("fthp: native rank " + nativeRank + " made " + gate.entries() + " MPI calls");
        }
        try {
            System.out.flush();
            System.err.flush();
            if (controlComm.exists()) {
                // replicated: wait here, repairing, until nobody can need this process in a repair
                finalizeBarrier.await();
            }
            if (repairThread != null) {
                repairThread.stop();
            }
            // unreplicated: a freed request must still complete, however long it takes
            orphans.drain(controlComm.exists() ? 2_000_000_000L : Long.MAX_VALUE);
            FailureWatch watch = failureWatch();
            int dead = watch == null ? 0 : watch.latest().deadNativeRanks().size();
            RunStatistics.write(nativeRank, logicalRank, membership.role() == Role.REP, records,
                    dead, repair.times().promoted(),
                    repair.times().repairs().stream().map(r -> r.totalNanos() / 1000).toList());
            CoordinatorLink coordinator = coordination.link();
            if (coordinator != null) {
                coordinator.finish();
            }
            if (coordinator != null && !Empi.finalizeSurvivesDeadPeers()) {
                // MPICH: a death during the native Finalize (after the FinalizeBarrier) would hold it forever; the
                // proxy library takes an exit without it as a clean end
                if (dead == 0 && !Empi.finalizeMpiWithin(NATIVE_FINALIZE_BOUND_MILLIS)) {
                    RuntimeMessages.say("fthp: native rank " + nativeRank + " left MPI_Finalize unfinished after "
                            + NATIVE_FINALIZE_BOUND_MILLIS + " ms: it waits forever on a peer that died during it");
                }
            } else if (dead == 0 || Empi.finalizeSurvivesDeadPeers()) {
                Empi.finalizeMpi();
            }
            // else (MPICH): the native Finalize would wait forever on the dead peer; the FinalizeBarrier has
            // already made sure nobody needs this process any more, and the launcher's proxy library takes its exit
            // without MPI_Finalize as a clean end
        } catch (EmpiException e) {
            throw new MpiError(e.errorClass() >= 0 ? e.errorClass() : MpiError.ERR_INTERN, e.getMessage(), e);
        } finally {
            finished = true;
        }
    }

    // ---- rollback in place ----

    /** The coordinators announced a rollback (on their connection's thread): every MPI call throws it from now on. */
    private void rollbackAnnounced(Message.Rollback r) {
        if (r.generation() > generation) {
            gate.trip(new RollbackSignal(r));
        }
    }

    /**
     * How long a rollback waits for the old run's operations that could write program memory to complete once
     * cancelled: a cancelled receive completes at once, unless the native library had already begun to fill it.
     */
    private static final long OLD_RUN_SETTLE_NANOS = 100_000_000L;

    /**
     * The operations abandoned rollbacks left unfinished (sends that may never complete): held for the process's
     * life, so the memory their native requests may still read is never given back while they might.
     */
    private static final List<InFlight> ABANDONED = new ArrayList<>();

    /** {@code hook} is told of every engine a rollback builds. */
    public static void onRebuilt(Consumer<Engine> hook) {
        rebuilt = hook;
    }

    /**
     * At the resilient entry, the program unwound from its body: abandons this engine (nothing of it is waited on
     * again: the old natives may wait on the dead process) and builds the next generation's, every part from its
     * start, with new native communicators that have the spare in the lost rank's place. Its run resumes from the
     * rollback's epoch (the program recovers it), its output positions wait for that recovery. {@code settled} is
     * told as soon as no operation of the old run can write program memory any more, before this process waits for
     * the others.
     */
    public static synchronized Engine rollBack(RollbackSignal signal, Runnable settled) {
        Engine old = current;
        Message.Rollback r = signal.rollback();
        if (old == null || old.generation >= r.generation()) {
            throw new IllegalStateException("no engine of an earlier generation to roll back");
        }
        CallKill.inRollback(old.nativeRank, r.generation());
        RollbackTrace trace = RollbackTrace.of(old.nativeRank);
        // nothing of the old engine runs from here: its repair thread could otherwise enter the native library
        // while the new engine uses it; a repair it runs leaves at its next wait
        old.repair.abandon();
        old.gate.takeForGood();
        trace.mark("gate");
        if (old.repairThread != null) {
            old.repairThread.stop();
        }
        old.ops.inFlight().cancelAll(System.nanoTime() + OLD_RUN_SETTLE_NANOS);
        if (old.ops.inFlight().count() > 0) {
            ABANDONED.add(old.ops.inFlight());
        }
        trace.mark("settled");
        settled.run();
        // the newest rollback the coordinators announced (one may have superseded the signal's meanwhile)
        RollbackSignal newest = old.gate.tripped();
        if (newest != null && newest.rollback().generation() > r.generation()) {
            r = newest.rollback();
        }
        r = RollbackReadiness.settle(r, old.nativeRank, () -> {
            RollbackSignal s = old.gate.tripped();
            return s == null ? null : s.rollback();
        });
        trace.mark("ready");
        ReplicaLayout layout = ReplicaLayout.of(r.cmpNatives(), r.repNatives());
        if (old.output != null) {
            // after a difference between twins, what the rank printed since the epoch was never shown (fthp-run
            // prints a gated rank's output only up to a committed epoch) and may be a corrupted copy's: it goes
            old.output.rollBack(r.afterSdc() && old.logicalRank < RankOutput.gatedRanks());
        }
        // a fresh control communicator: the old one may still carry the old run's messages (an acknowledgement
        // in flight, a round a survivor unwound from), which a receive of the new run would otherwise take
        ControlComm control = old.controlComm.exists()
                ? ControlComms.ofGeneration(layout, old.nativeSize, r.generation(), old.blockingCalls)
                : ControlComm.NONE;
        trace.mark("control");
        Engine e = new Engine(old.nativeRank, old.nativeSize, layout, old.threadLevel,
                new StagingPool(Empi.HANDLE_BYTES, Empi.STATUS_BYTES), control, old.blockingCalls, old.tagBound,
                true,
                old.incarnation.rolledBack(r.epoch(), r.firstEpoch()), old.output, r.generation(), false);
        e.gate.continueFrom(old.gate);
        trace.mark("engine");
        e.resume(old, old.repairThread != null, r.failureEpoch());
        trace.mark("world");
        trace.print();
        current = e;
        rebuilt.accept(e);
        return e;
    }

    /**
     * A rollback's engine: its communicators and acknowledgements, the old engine's coordinator link and program
     * end, and a repair thread of its own if the old one had one.
     */
    private void resume(Engine old, boolean repairThreadWanted, long failureEpoch) {
        buildWorld();
        CoordinatorLink coordinator = old.coordination.link();
        coordination.connected(coordinator);
        programEnd = old.programEnd;
        // the twins unwound at different sends: both hash again from the epoch they run the body from
        SendDigest.install(SendDigest.restarted(SendDigest.active(),
                replicated() && membership.layout().hasReplica(logicalRank)));
        if (coordinator != null) {
            // the failures up to the rollback's are reflected in this engine's layout; a later one is repaired
            membership.applied(failureEpoch);
            coordinator.onRollback(this::rollbackAnnounced);
            if (replicated() && repairThreadWanted) {
                repairThread = RepairThread.start(repair, gate, coordinator.watch());
            }
        }
    }

    /**
     * Throws the rollback the coordinators announced, if any: a wait outside the native library (a checkpoint that
     * waits for its commit) ends with it at once, as a call would.
     */
    public void rollbackPoint() {
        RollbackSignal rollback = gate.tripped();
        if (rollback != null) {
            throw rollback;
        }
    }

    /** Tells the coordinators the program's resilient body returned: no rollback can reach it any more. */
    public void bodyLeft() {
        CoordinatorLink link = coordination.link();
        if (link != null) {
            link.bodyLeft(nativeRank);
        }
    }

    /** The running engine's generation: what a handle made now belongs to (0 before MPI_Init). */
    public static int currentGeneration() {
        Engine e = current;
        return e == null ? 0 : e.generation;
    }

    /** The job's generation this engine runs in (0 until the first rollback in place). */
    public int generation() {
        return generation;
    }

    /** Whether this process was a spare that took a lost rank (its body runs as a replacement). */
    public boolean replacement() {
        return replacement;
    }

    /** Tells the coordinators the program entered its resilient body in this engine's generation. */
    public void bodyEntered() {
        CoordinatorLink link = coordination.link();
        if (link != null) {
            link.bodyEntered(nativeRank, generation);
        }
    }

    // ---- the duty cycle ----

    /**
     * One turn of this process's background duty, between two polls of
     * whatever a call waits for: operations nobody waits for, acknowledgements,
     * and a repair if the coordinators announced a failure. Returns the units
     * of work done (0: an idle turn).
     */
    public int doWork() {
        RollbackSignal rollback = gate.tripped();
        if (rollback != null && Thread.currentThread() == mainThread) {
            // at once in the call the program waits in: its peer may be the dead process
            throw rollback;
        }
        int work = orphans.progress();
        Acknowledgements acks = records.acknowledgements();
        if (acks != null) {
            work += acks.progress();
        }
        if (repair.pending()) {
            if (creation.active()) {
                // no repair in the middle of making native communicators: the creation is abandoned instead
                creation.failureArrived();
            } else {
                repair.run();
            }
            work++;
        }
        return work;
    }

    /** Waits, taking turns of the duty, until {@code done} says so. */
    public void await(BooleanSupplier done) {
        duty.await(done);
    }

    /**
     * Progresses {@code op} until it completes. The operation is the wait's condition itself: a method
     * reference made per wait was allocated through the JVM's slow path on every blocking receive (1 % of an
     * 8-byte send and receive pair's CPU in {@code Unsafe_AllocateInstance}, and the young generation's pages).
     */
    public void await(NativeOp op) {
        duty.await(op);
    }

    /** Waits, as {@link #await(BooleanSupplier)}, on the program's requests ({@link DutyCycle#awaitRequests}). */
    public void awaitRequests(BooleanSupplier done) {
        duty.awaitRequests(done);
    }

    /** Progresses a collective's {@code op} until it completes ({@link DutyCycle#awaitCollective}). */
    public void awaitCollective(NativeOp op) {
        duty.awaitCollective(op);
    }

    /** Progresses every one of {@code ops}, each turn all of them, until all complete. */
    public void awaitAll(NativeOp... ops) {
        duty.awaitAll(ops);
    }

    // ---- who this process is ----

    public int nativeRank() { return nativeRank; }

    /** The link to the coordinators, or null when the job has none. */
    public CoordinatorLink coordinatorLink() {
        return coordination.link();
    }
    public int logicalRank() { return logicalRank; }
    public Role role() { return membership.role(); }
    public boolean replicated() { return membership.replicated(); }
    public int threadLevel() { return threadLevel; }
    public Thread mainThread() { return mainThread; }

    /** Which native process holds each copy of each logical rank. */
    public ReplicaLayout layout() { return membership.layout(); }

    /** Who holds which copy and this process's role, as the last repair left them. */
    public Membership membership() { return membership; }

    // ---- its parts ----

    public StagingPool pool() { return pool; }
    public OpContext ops() { return ops; }
    public MessageRecords records() { return records; }
    public InlineTransfer inline() { return inline; }
    public InlineAllreduce inlineAllreduce() { return inlineAllreduce; }
    public Gate gate() { return gate; }
    public BlockingCalls blockingCalls() { return blockingCalls; }
    public OrphanRequests orphans() { return orphans; }
    public RecentBuffers recentBuffers() { return recentBuffers; }
    public LiveComms liveComms() { return comms; }
    public CommRef world() { return world; }
    public CommRef self() { return self; }
    public ControlComm controlComm() { return controlComm; }
    public DutyCycle duty() { return duty; }
    public StructureBuilder structures() { return structures; }
    public CommCreation creation() { return creation; }
    public CommRelease release() { return release; }
    public OpenPorts ports() { return ports; }
    public Repair repair() { return repair; }
    public Twins twins() { return twins; }
    public BufferedSends bufferedSends() { return bufferedSends; }
    public PointToPoint pointToPoint() { return pointToPoint; }
    public ProgramEnd programEnd() { return programEnd; }

    /** Where this copy's output goes and how far it got; null when it prints straight through mpirun. */
    public RankOutput output() { return output; }

    /** Which run of the job this is. */
    public Incarnation incarnation() { return incarnation; }

    /** The connection to this node's coordinator (checkpoint pieces, the timer), or null without coordinators. */
    public CoordinatorClient coordinatorClient() {
        return coordination.client();
    }

    /** The coordinators' failure announcements, or null when the job has no coordinators. */
    public FailureWatch failureWatch() {
        return coordination.watch();
    }

    /** Whether MPI is running here (between init and finalize). */
    public boolean running() {
        return !finished;
    }

    // ---- process-wide values both twins must agree on ----

    /** The computational copy's clock, on both twins: control flow that depends on time stays the same. */
    public double wtime() {
        double local = Empi.wtime();
        return Double.longBitsToDouble(twins.share(world.get(), Double.doubleToRawLongBits(local)));
    }

    public double wtick() {
        return Empi.wtick();
    }

    public String processorName() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocate(Empi.MAX_PROCESSOR_NAME + 1);
            MemorySegment len = a.allocate(ValueLayout.JAVA_INT);
            Empi.getProcessorName(name, len);
            return twins.share(world.get(), name.getString(0));
        }
    }

    public static String libraryVersion() {
        try {
            var abi = Empi.load();
            return "FTHP-J over " + abi.family() + " " + abi.version();
        } catch (EmpiException e) {
            return "FTHP-J (native MPI unavailable: " + e.getMessage() + ")";
        }
    }

    /** The live copies of a peer, from the current layout, for acknowledgements. */
    private record AckPeers(LiveComms comms, Membership membership) implements Acknowledgements.Peers {
        @Override
        public int[] copies(int commId, int peer) {
            CommStructure s = comms.byId(commId);
            if (s == null) {
                return null;
            }
            int[] group = s.isInter() ? s.remoteWorldRanks() : s.worldRanks();
            if (peer < 0 || peer >= group.length) {
                return null;
            }
            int world = group[peer];
            ReplicaLayout layout = membership.layout();
            return layout.hasReplica(world) ? new int[] {layout.cmpNative(world), layout.repNative(world)}
                    : new int[] {layout.cmpNative(world)};
        }

        @Override
        public int selfRank(int commId) {
            CommStructure s = comms.byId(commId);
            return s == null ? -1 : s.rank();
        }

        @Override
        public int computationalTwin() {
            return membership.role() == Role.REP ? membership.layout().cmpNative(membership.logicalRank()) : -1;
        }

        @Override
        public void twinReceived(int commId, long through) {
            CommStructure s = comms.byId(commId);
            if (s != null) {
                s.twinRecords().trimThrough(through);
            }
        }
    }
}

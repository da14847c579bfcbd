package org.fthp.coordinator.node;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.fthp.coordinator.checkpoint.CheckpointService;
import org.fthp.coordinator.checkpoint.ChunkAssembler;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.FailureLedger;
import org.fthp.coordinator.event.FailureSnapshot;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.liveness.LifeLock;
import org.fthp.coordinator.spares.LocalSpares;
import org.fthp.coordinator.spares.RollbackPlanner;
import org.fthp.coordinator.wire.FramePipeline;
import org.fthp.coordinator.wire.LinkHeartbeat;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;
import org.fthp.coordinator.wire.PeerRole;
import org.fthp.coordinator.wire.ServerAuthHandler;
import org.fthp.coordinator.wire.UpstreamConnection;

/**
 * The coordinator of one node (docs/DESIGN.md §10).
 *
 * <p>Upward: a registered process whose connection ends, or whose pid the launcher's proxy reports, is a failure;
 * it goes to the parent (group leader, or the primary for a leader), and a leader forwards its children's reports
 * the same way. Downward: the primary turns each batch that adds something new into the next epoch and sends
 * FAILURE_SET (always the whole set) to its children; every node passes it on to its own children and to its
 * live processes. When the failed set holds every copy of a logical rank, the primary sends JOB_ABORT down the same
 * tree, after the FAILURE_SET that caused it.
 *
 * <p>Proxy reports ({@link #pidReported}) reach every node coordinator of the host, so each node acts only on the
 * pids registered with it. A pid nobody registered is a process that died before it got that far (e.g. inside
 * MPI_Init); the native job cannot complete its start-up without it, so the primary ends the job.
 *
 * <p>Threading: every connection, accepted or outgoing, lives on the node's single I/O thread, and propagation
 * runs there too ({@link #reportFailedPid} hands it over), so sends are totally ordered. The state is still guarded
 * by {@code lock} because the observation methods and {@link #reportFailedPid} are called from other threads.
 */
public final class NodeCoordinator implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(NodeCoordinator.class.getName());
    /** Causes of a failure, as the event log shows them: which of the two detectors saw the death first. */
    public static final String CONNECTION_LOST = "connection-lost";
    public static final String PROXY_REPORT = "proxy-report";
    /** Seen through the process's life lock (liveness.LifeLock): its threads went, before its memory did. */
    public static final String LIFE_LOCK = "life-lock";
    /** A process whose host's coordinator was lost with it (a whole host failed): failed with the host, unseen. */
    public static final String HOST_LOST = "host-lost";
    /**
     * How long a reported pid that has not registered here is remembered: a process may send REGISTER_PROCESS
     * and die at once, and its report can then overtake its registration. Two seconds is far longer than that
     * race and short enough that a job whose process died during MPI_Init ends promptly.
     */
    public static final Duration REPORT_GRACE = Duration.ofSeconds(2);

    private final CoordinatorConfig config;
    private final EventLoopGroup acceptGroup = new NioEventLoopGroup(1);
    /**
     * One I/O thread for all of this node's connections: a node has a few hundred peers at most and tiny messages,
     * and a single thread means every send happens in one order, so each peer sees epochs strictly increasing.
     */
    private final EventLoopGroup ioGroup = new NioEventLoopGroup(1);
    /** A failure's INFO lines, written once the survivors have repaired (the job's first line costs ~60 ms of CPU). */
    private final DeferredLog failureLog = new DeferredLog(LOG, NodeCoordinator.class, ioGroup);
    private Channel serverChannel;

    private final Object lock = new Object();
    /** Processes that are registered, not finished and not known dead: the ones that receive failure sets. */
    private final Map<Channel, LocalProcess> liveProcesses = new HashMap<>();
    /** The failure board of each live process that holds a life lock (liveness.LifeLock): failure sets go there too. */
    private final Map<Channel, LifeLock.Board> boards = new HashMap<>();
    /** Live processes whose program ended the job: they still hear the abort, and their disconnect is no failure. */
    private final Set<Channel> endedProcesses = new HashSet<>();
    /** Child coordinators' connections, with the node id each registered as. */
    private final Map<Channel, Integer> children = new LinkedHashMap<>();
    /**
     * The node each native rank registers with (fthp-run's placement on several hosts), or null when unknown (one
     * host): what a lost child coordinator takes down with it.
     */
    private volatile int[] nodeOfRank;
    /** Native ranks that finished normally here or below (PROCESS_DONE, PROCESSES_DONE): never failed with a host. */
    private final Set<Integer> doneRanks = new HashSet<>();
    /** Primary: a host was lost, so the native launcher may wait for ever for processes it can no longer see. */
    private boolean hostLost;
    private boolean processesEndedSaid;
    /** Every pid that ever registered here, finished or failed included: the pids this node owns. */
    private final Set<Long> registeredPids = new HashSet<>();
    /** Reported pids not (yet) registered here, each waiting out {@link #REPORT_GRACE}. */
    private final Set<Long> unclaimedPids = new HashSet<>();
    /** Reports (failures, unowned pids) made before the uplink is registered; sent as soon as it is. */
    private final List<Message> unsentUpward = new ArrayList<>();
    private Channel uplink;
    /** Only the primary owns the job-wide set; other nodes just remember the latest snapshot they were sent. */
    private FailureLedger ledger;
    private UnownedPidVotes unownedVotes;
    /**
     * How many node coordinators receive each proxy report: every node when they share one host (fthp-run hands
     * the proxy all their pipes), one when each host's reports reach only that host's coordinator.
     */
    private volatile int unownedVoters;
    /** Pids of processes of an incarnation that ended (a restart): late reports about them are not failures. */
    private final Set<Long> retiredPids = new HashSet<>();
    /** N and M; M changes when the job restarts with another replication degree. */
    private volatile JobShape jobShape;
    /** Every node's address, for the checkpoint data links (known once the hierarchy is wired). */
    private volatile List<NodeAddress> addresses;
    private final CheckpointService checkpoints;
    /** This node's waiting spares (fthp-run --spares): apart from the program's processes. */
    private final LocalSpares spares = new LocalSpares();
    /** Primary: what a rollback in place needs, and its decisions; replaced at each new incarnation. */
    private RollbackPlanner rollbacks;
    /**
     * How long the survivors of a rollback and its spare have to be back in their resilient body before the job is
     * relaunched instead (a process that swallowed the rollback, or is stuck where the unwinding cannot reach).
     */
    static final Duration ROLLBACK_DEADLINE = Duration.ofSeconds(rollbackDeadlineSeconds());

    /** {@code FTHP_ROLLBACK_DEADLINE_SECONDS} from fthp-run's environment, else 30. */
    private static long rollbackDeadlineSeconds() {
        String v = System.getenv("FTHP_ROLLBACK_DEADLINE_SECONDS");
        try {
            return v == null || v.isBlank() ? 30 : Math.max(1, Long.parseLong(v.strip()));
        } catch (NumberFormatException e) {
            return 30;
        }
    }
    private FailureSnapshot latest;
    private Message.JobAbort abort;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicBoolean shutDown = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile JobEvents events = JobEvents.NONE;
    private volatile Runnable parentLost = () -> { };
    /**
     * Primary: nodes registered directly with it although their layout parent is a group leader, because they lost
     * that leader (adopted); their processes are theirs alone, not the leader's, when the leader is lost.
     */
    private final Set<Integer> adopted = new HashSet<>();
    /** Primary: nodes whose processes were failed with their host; such a node may not register again. */
    private final Set<Integer> lostNodes = new HashSet<>();
    /** Non-primary: every failure this node passed up (sent again to a new parent: what the lost one had not). */
    private final List<FailedProcess> reportedUp = new ArrayList<>();
    /** The node this one is registered with, or -1. */
    private int parentNode = -1;
    /** Told the native rank of each process that registers here (fthp-run counts them before timed kills). */
    private volatile java.util.function.IntConsumer registrations = rank -> { };

    public NodeCoordinator(CoordinatorConfig config) {
        this.config = config;
        this.ledger = config.isPrimary() ? new FailureLedger() : null;
        // On one host fthp-run hands every node coordinator's pipe to the proxy, so every node votes.
        this.unownedVoters = config.layout().nodeCount();
        this.unownedVotes = config.isPrimary() ? new UnownedPidVotes(unownedVoters) : null;
        this.jobShape = config.jobShape();
        this.addresses = config.nodes();
        try {
            this.checkpoints = new CheckpointService(config.nodeId(), config.layout().nodeCount(), config.isPrimary(),
                    config.checkpoint(), new CheckpointTree(), ioGroup, config.secret(), () -> addresses,
                    () -> jobShape);
        } catch (java.io.IOException e) {
            acceptGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            ioGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        warmFailurePath();
        // the hand-over's lambda class is spun now, not at the first failure (~0.4 ms): an empty batch does nothing
        reportOnIoThread(List.of());
    }

    /**
     * Runs once, at start-up, what a job's first failure set runs on its way down (the ledger, the set's
     * encoding, the dead ranks for the boards): a coordinator has no ahead-of-time cache, so that code was loaded
     * and interpreted between the primary's decision and every survivor's news (the send-down took 2.5-7 ms cold).
     */
    private static void warmFailurePath() {
        FailedProcess nobody = new FailedProcess(0, 0, 0, Role.CMP, "warm-up");
        FailureSnapshot snapshot = new FailureLedger().record(List.of(nobody)).orElseThrow();
        newlyFailed(List.of(), snapshot.failed());
        nativeRanksOf(snapshot.failed());
        io.netty.buffer.ByteBuf frame = io.netty.buffer.Unpooled.buffer(64);
        try {
            org.fthp.coordinator.wire.MessageCodec.encode(new Message.FailureSet(snapshot.epoch(), snapshot.failed()),
                    frame);
        } finally {
            frame.release();
        }
    }

    /** How the checkpoint service reaches the rest of the tree. */
    private final class CheckpointTree implements CheckpointService.Tree {
        @Override
        public void sendDown(Message message) {
            synchronized (lock) {
                NodeCoordinator.this.sendDown(message);
            }
        }

        @Override
        public void toPrimary(Message message) {
            NodeCoordinator.this.toPrimary(message);
        }

        @Override
        public void onIoThread(Runnable task) {
            ioGroup.execute(task);
        }
    }

    public CheckpointService checkpoints() {
        return checkpoints;
    }

    /** Where the primary reports detected failures and aborts (the event log, the launcher). */
    public void setJobEvents(JobEvents events) {
        this.events = events == null ? JobEvents.NONE : events;
        checkpoints.setJobEvents(events);
    }

    public int nodeId() {
        return config.nodeId();
    }

    /** Binds the listening socket and returns the address actually bound (the real port when 0 was asked for). */
    public NodeAddress start() throws InterruptedException {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptGroup, ioGroup)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FramePipeline.install(ch.pipeline());
                        ch.pipeline().addLast("auth", new ServerAuthHandler(config.secret(), config.authTimeout()));
                        ch.pipeline().addLast("session", new CoordinatorSession(NodeCoordinator.this));
                    }
                });
        serverChannel = bootstrap.bind(config.bindHost(), config.port()).sync().channel();
        InetSocketAddress bound = (InetSocketAddress) serverChannel.localAddress();
        LOG.log(Level.FINE, "coordinator node {0} listening on {1}", new Object[] {nodeId(), bound});
        return new NodeAddress(config.bindHost(), bound.getPort());
    }

    public NodeAddress boundAddress() {
        InetSocketAddress bound = (InetSocketAddress) serverChannel.localAddress();
        return new NodeAddress(config.bindHost(), bound.getPort());
    }

    /**
     * One coordinator per host, each reading only its own host's proxy reports: a single "not mine" for a pid is
     * enough for the primary to end the job (the claim counts per host). Call before {@link #start}; only the
     * primary counts.
     */
    public void reportsArePerHost() {
        synchronized (lock) {
            unownedVoters = 1;
            if (unownedVotes != null) {
                unownedVotes = new UnownedPidVotes(1);
            }
        }
    }

    /**
     * Where each native rank registers ({@code nodeOfRank[r]} = node id; fthp-run's FTHP_COORDINATOR_OF), so that
     * a lost child coordinator fails every process of its host (and of the nodes below it) at once. Call before
     * {@link #start}.
     */
    public void ranksPlaced(int[] nodeOfRank) {
        for (int node : nodeOfRank) {
            if (node < 0 || node >= config.layout().nodeCount()) {
                throw new IllegalArgumentException("a rank is placed on node " + node + ", outside 0.."
                        + (config.layout().nodeCount() - 1));
            }
        }
        this.nodeOfRank = nodeOfRank.clone();
    }

    /** Where each registration's native rank is told (the launcher, through CoordinatorMain's stdout). */
    public void onProcessRegistered(java.util.function.IntConsumer listener) {
        this.registrations = listener == null ? rank -> { } : listener;
    }

    /**
     * A timed kill on several hosts (fthp-run's --kill R@T, --inject): SIGKILLs the live process registered here
     * as native rank {@code nativeRank}, found by the pid it registered with (this host's pid), and returns that
     * pid. Its death is then detected as any other (the proxy's report, the lost connection).
     */
    public java.util.OptionalLong killRegistered(int nativeRank) {
        long pid = -1;
        synchronized (lock) {
            for (LocalProcess p : liveProcesses.values()) {
                if (p.nativeRank() == nativeRank) {
                    pid = p.pid();
                    break;
                }
            }
        }
        if (pid <= 0) {
            return java.util.OptionalLong.empty();
        }
        java.util.Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().destroyForcibly()) {
            return java.util.OptionalLong.empty();
        }
        return java.util.OptionalLong.of(pid);
    }

    /** Connects to the parent named in the configuration's node list. */
    public CompletableFuture<Void> connectUpward() {
        return connectUpward(config.nodes());
    }

    /**
     * Connects and registers with this node's parent; completes when the parent has acknowledged. The primary
     * has no parent and completes at once.
     */
    public CompletableFuture<Void> connectUpward(List<NodeAddress> nodes) {
        this.addresses = List.copyOf(nodes);
        OptionalInt parent = config.layout().parentOf(nodeId());
        if (parent.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return connectTo(parent.getAsInt());
    }

    /** Registers with node {@code parent} (the layout's parent, or the primary once the group leader is lost). */
    private CompletableFuture<Void> connectTo(int parent) {
        NodeAddress parentAddress = addresses.get(parent);
        return UpstreamConnection.open(ioGroup, parentAddress.toSocketAddress(), config.secret(),
                        PeerRole.COORDINATOR, "node " + nodeId(), new Message.RegisterCoordinator(nodeId()),
                        this::fromParent, this::uplinkLost)
                .thenAccept(channel -> uplinkRegistered(channel, parent));
    }

    /**
     * Reports that a local process died, as seen by the launcher's proxy library (the connection may still look
     * open, e.g. a killed process whose socket the kernel has not torn down yet).
     *
     * @return false if no live process with that pid is registered here (already reported, finished or unknown)
     */
    public boolean reportFailedPid(long pid, String cause) {
        return reportFailedPid(pid, cause, false);
    }

    private boolean reportFailedPid(long pid, String cause, boolean onThisThread) {
        FailedProcess failed = null;
        Channel channel = null;
        synchronized (lock) {
            for (Map.Entry<Channel, LocalProcess> e : liveProcesses.entrySet()) {
                if (e.getValue().pid() == pid) {
                    channel = e.getKey();
                    failed = e.getValue().failed(cause);
                    break;
                }
            }
            if (channel != null) {
                liveProcesses.remove(channel);
            }
        }
        if (failed == null) {
            // the usual case when the lost connection came first: the same death, already handled
            LOG.log(Level.FINE, "coordinator node {0}: reported pid {1} is not a live registered process",
                    new Object[] {nodeId(), Long.toString(pid)});
            return false;
        }
        List<FailedProcess> batch = List.of(failed);
        if (onThisThread) {
            failuresReported(batch);
        } else {
            reportOnIoThread(batch);
        }
        // after the survivors are told: closed first, the I/O thread ran the connection's end (under the lock) just
        // as this thread needed the lock to publish the set and that thread to write it (life lock at 1+1: the set
        // published 0.65 ms after the wake, median of 13 kills, against 1.08 ms, tails 3.8 against 4.5 ms)
        channel.close();
        return true;
    }

    /**
     * A pid the launcher's proxy reported killed by a signal (read from {@link ProxyReportPipe}). The rule, which
     * needs no agreement beyond one vote per node:
     * <ul>
     * <li>a pid that registered here is this node's: if still live it fails exactly as a lost connection would
     *     (whichever of the two comes first wins; the second finds the process gone and does nothing); if it
     *     already finished or failed, the report is ignored;
     * <li>any other pid is remembered for {@link #REPORT_GRACE}: a registration with it in that time is failed at
     *     once; otherwise this node tells the primary that the pid is not its own (UNOWNED_PID). The owner never
     *     says so, so when every node has, nobody owns the pid and the primary ends the job.
     * </ul>
     */
    public void pidReported(long pid) {
        synchronized (lock) {
            if (closed || retiredPids.contains(pid)) {
                return;
            }
            if (!registeredPids.contains(pid)) {
                if (unclaimedPids.add(pid)) {
                    try {
                        ioGroup.schedule(() -> graceOver(pid), REPORT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (RejectedExecutionException e) {
                        // shutting down: nothing left to decide
                    }
                }
                return;
            }
        }
        reportFailedPid(pid, PROXY_REPORT);
    }

    /** On the I/O thread, {@link #REPORT_GRACE} after a report of a pid that had not registered here. */
    private void graceOver(long pid) {
        synchronized (lock) {
            if (!unclaimedPids.remove(pid) || closed) {
                return;   // it registered meanwhile and was failed then
            }
        }
        LOG.log(Level.INFO, "coordinator node {0}: reported pid {1} did not register here",
                new Object[] {nodeId(), Long.toString(pid)});
        unownedPidReported(pid, nodeId());
    }

    // ---- called by CoordinatorSession ----

    void processRegistered(Channel channel, LocalProcess process) {
        if (process.role() == Role.SPARE) {
            spareRegistered(channel, process);
            return;
        }
        boolean alreadyReportedDead;
        synchronized (lock) {
            liveProcesses.put(channel, process);
            registeredPids.add(process.pid());
            alreadyReportedDead = unclaimedPids.remove(process.pid());
            channel.write(new Message.Registered(nodeId()));
            checkpoints.catchUp(channel);
            catchUp(channel);
        }
        checkpoints.processRegistered();
        registrations.accept(process.nativeRank());
        LOG.log(Level.FINE, "coordinator node {0}: registered {1}", new Object[] {nodeId(), process});
        if (alreadyReportedDead) {
            reportFailedPid(process.pid(), PROXY_REPORT);
        } else {
            // the fastest of the three detectors: the others wait until the kernel has freed the process's memory
            LifeLock.Board board = LifeLock.watch(LifeLock.pathFor(config.secret(), process.nativeRank(), process.pid()),
                    () -> lifeLockLost(channel, process.pid()), () -> boardGone(channel),
                    "fthp-life-watch-" + process.nativeRank());
            if (board != null) {
                synchronized (lock) {
                    if (liveProcesses.containsKey(channel)) {
                        boards.put(channel, board);
                        if (latest != null) {
                            board.post(latest.epoch(), nativeRanksOf(latest.failed()));
                        }
                    }
                }
            }
        }
    }

    /** Reports {@code batch} on the I/O thread (warmed at start-up with an empty one). */
    private void reportOnIoThread(List<FailedProcess> batch) {
        ioGroup.execute(() -> failuresReported(batch));
    }

    private void boardGone(Channel channel) {
        synchronized (lock) {
            boards.remove(channel);
        }
    }

    /** Plain loop, no stream: runs on every failure set's way down (warmed at start-up). */
    private static int[] nativeRanksOf(List<FailedProcess> failed) {
        int[] ranks = new int[failed.size()];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = failed.get(i).nativeRank();
        }
        return ranks;
    }

    /** Those of {@code now} not in {@code before}; a plain loop, as {@link #nativeRanksOf}. */
    private static List<FailedProcess> newlyFailed(List<FailedProcess> before, List<FailedProcess> now) {
        List<FailedProcess> added = new ArrayList<>(now.size());
        for (FailedProcess f : now) {
            if (!before.contains(f)) {
                added.add(f);
            }
        }
        return List.copyOf(added);
    }

    /** A registered process died holding its life lock: a failure, unless its program had ended the job. */
    private void lifeLockLost(Channel channel, long pid) {
        synchronized (lock) {
            if (closed || endedProcesses.contains(channel)) {
                return;
            }
        }
        // decided on this thread, not handed to the I/O thread: the failure boards are written at once (the
        // connections' writes still go through the I/O thread, in the order they are made)
        reportFailedPid(pid, LIFE_LOCK, true);
    }

    /** A spare: owned here (its pid is no stranger), told nothing but its release; its loss is no failure. */
    private void spareRegistered(Channel channel, LocalProcess spare) {
        synchronized (lock) {
            registeredPids.add(spare.pid());
            unclaimedPids.remove(spare.pid());
            channel.writeAndFlush(new Message.Registered(nodeId()));
            spares.registered(channel, spare.nativeRank());
        }
        toPrimary(new Message.ProcessState(spare.nativeRank(), Message.ProcessState.State.SPARE_READY, 0));
        LOG.log(Level.FINE, "coordinator node {0}: registered {1}", new Object[] {nodeId(), spare});
    }

    /** Under lock. Primary: once every program process has finished or failed, the spares finalize too. */
    private void releaseSparesIfEnded() {
        if (ledger == null || spares.released() || !LocalSpares.programEnded(
                rollbacks().programNatives(), doneRanks, failedNativeRanks())) {
            return;
        }
        releaseSpares();
    }

    /** Under lock: this node's spares and every child's. */
    private void releaseSpares() {
        if (spares.release()) {
            for (Channel child : children.keySet()) {
                child.writeAndFlush(new Message.SparesRelease());
            }
        }
    }

    void processDone(Channel channel) {
        synchronized (lock) {
            if (spares.gone(channel) != null) {
                return;
            }
            LocalProcess done = liveProcesses.remove(channel);
            if (done != null) {
                processesDone(List.of(done.nativeRank()));
            }
        }
    }

    /** Under lock or from a child: native ranks that finished normally; recorded here, and passed up to the primary. */
    void processesDone(List<Integer> nativeRanks) {
        synchronized (lock) {
            doneRanks.addAll(nativeRanks);
            if (ledger == null) {
                sendUp(new Message.ProcessesDone(nativeRanks));
            } else {
                sayIfProcessesEnded();
                releaseSparesIfEnded();
            }
        }
    }

    void processConnectionLost(Channel channel) {
        LocalProcess process;
        boolean teardown;
        synchronized (lock) {
            Integer spare = spares.gone(channel);
            if (spare != null) {
                LOG.log(Level.INFO, "coordinator node {0}: spare {1} is gone", new Object[] {nodeId(), spare});
                toPrimary(new Message.ProcessState(spare, Message.ProcessState.State.SPARE_GONE, 0));
                return;
            }
            process = liveProcesses.remove(channel);
            if (endedProcesses.remove(channel)) {
                return;   // it ended the job itself: the end of its connection is that, not a failure
            }
            teardown = abort != null;
        }
        if (process != null && !closed) {
            // reported first: the line can cost tens of milliseconds (the first INFO of the job)
            failuresReported(List.of(process.failed(CONNECTION_LOST)));
            // after the job's end these are its processes going, worth no more than a debug line
            if (teardown) {
                LOG.log(Level.FINE, "coordinator node {0}: lost {1}", new Object[] {nodeId(), process});
            } else {
                failureLog.info("processConnectionLost", "coordinator node {0}: lost {1}", nodeId(), process);
            }
        }
    }

    boolean childRegistered(Channel channel, int childNode) {
        boolean layoutChild = config.layout().isChildOf(childNode, nodeId());
        synchronized (lock) {
            if (!layoutChild) {
                // the primary takes in a node that lost its group leader, unless it already failed that node's
                // processes with it (they may not come back: the job has repaired without them)
                boolean adoptable = config.isPrimary() && childNode > 0 && childNode < config.layout().nodeCount()
                        && !lostNodes.contains(childNode) && !children.containsValue(childNode);
                if (!adoptable) {
                    return false;
                }
                adopted.add(childNode);
                LOG.log(Level.INFO, "coordinator primary: node {0} lost its group leader and reports here now",
                        childNode);
            }
            children.put(channel, childNode);
            channel.write(new Message.Registered(nodeId()));
            catchUp(channel);
        }
        watchWithHeartbeats(channel, "child coordinator node " + childNode, "session");
        return true;
    }

    /**
     * On the I/O thread: heartbeats on a registered child or parent link (when configured), in front of the handler
     * named {@code before}; a link silent too long is closed, which its owner handles as any lost connection.
     */
    private void watchWithHeartbeats(Channel channel, String peer, String before) {
        if (!config.heartbeats().enabled() || !channel.isActive()) {
            return;
        }
        channel.pipeline().addBefore(before, "heartbeat", new LinkHeartbeat(config.heartbeats(), silentMillis -> {
            if (!closed) {
                LOG.log(Level.SEVERE, "coordinator node {0}: no word from {1} ({2}) for {3} ms (heartbeats {4}):"
                        + " taking it for lost", new Object[] {nodeId(), peer, channel.remoteAddress(),
                        Long.toString(silentMillis), config.heartbeats()});
            }
        }));
    }

    /** Another node opened a checkpoint data link to this one. */
    boolean peerRegistered(Channel channel, int peerNode) {
        if (peerNode < 0 || peerNode >= config.layout().nodeCount() || peerNode == nodeId()) {
            return false;
        }
        channel.writeAndFlush(new Message.Registered(nodeId()));
        return true;
    }

    /**
     * A checkpoint report for the primary (PIECE_HELD, PIECES_ON_DISK, CHECKPOINT_COST), from this node, a child
     * or a local process: the primary handles it on its I/O thread, everyone else passes it up.
     */
    void toPrimary(Message message) {
        if (!config.isPrimary()) {
            synchronized (lock) {
                sendUp(message);
            }
            return;
        }
        ioGroup.execute(() -> {
            switch (message) {
                case Message.PieceHeld h -> checkpoints.pieceHeld(h);
                case Message.PiecesOnDisk d -> checkpoints.piecesOnDisk(d);
                case Message.CheckpointCost c -> checkpoints.costReported(c);
                case Message.ProcessState s -> processStateReported(s);
                default -> LOG.log(Level.WARNING, "coordinator primary: {0} is not a checkpoint report", message.type());
            }
        });
    }

    /**
     * A child coordinator's connection ended while the job runs: its host is taken for lost (the coordinator is
     * killed with it, or the host is cut off, and the connection's end is the sign). Every process placed on that
     * node, or on a node below it (they reported through it), that has not finished is failed at once, as one
     * batch, rather than one by one as their own connections would time out: the survivors repair once, and a
     * rank whose copies were all there ends the job at once. Without a placement (one host) nothing can be said
     * about the child's processes beyond this log line.
     */
    void childLost(Channel channel) {
        Integer child;
        synchronized (lock) {
            child = children.remove(channel);
            if (child != null) {
                adopted.remove(child);
            }
        }
        if (closed || child == null) {
            return;
        }
        Set<Integer> members;
        synchronized (lock) {
            members = membersOf(child);
        }
        failNodes(child, Set.of(child), channel.remoteAddress());
        if (!members.isEmpty() && nodeOfRank != null) {
            // they may be alive behind the lost leader: each gets the time to notice and register here directly
            long graceMs = adoptionGrace().toMillis();
            LOG.log(Level.INFO, "coordinator node {0}: node {1}''s members {2} have {3} ms to report here directly",
                    new Object[] {nodeId(), child, members, Long.toString(graceMs)});
            try {
                ioGroup.schedule(() -> {
                    for (int member : members) {
                        boolean back;
                        synchronized (lock) {
                            back = children.containsValue(member);
                        }
                        if (!back) {
                            failNodes(member, Set.of(member), "its lost group leader, node " + child);
                        }
                    }
                }, graceMs, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // shutting down
            }
        }
    }

    /**
     * How long the primary waits for the members of a lost group leader to register directly before it fails
     * their processes too: they notice the loss as it does (a closed connection, or the heartbeats' timeout, late
     * on a loaded machine) and then need a connection and a handshake.
     */
    Duration adoptionGrace() {
        Duration byHeartbeats = config.heartbeats().timeout().multipliedBy(2);
        Duration least = ADOPTION_TRIES;
        return byHeartbeats.compareTo(least) > 0 ? byHeartbeats.plus(Duration.ofSeconds(1)) : least;
    }

    /**
     * Fails, as one batch (cause host-lost), every unfinished process placed on {@code nodes}, which were lost with
     * node {@code node}'s connection ({@code via} says how, for the log); those nodes may not register again. Without
     * a placement (one host) nothing can be said about their processes beyond the log line.
     */
    private void failNodes(int node, Set<Integer> nodes, Object via) {
        int[] placed = nodeOfRank;
        List<FailedProcess> batch = new ArrayList<>();
        synchronized (lock) {
            if (placed != null && abort == null) {
                Set<Integer> known = failedNativeRanks();
                int n = jobShape.logicalRanks();
                for (int rank = 0; rank < placed.length; rank++) {
                    if (nodes.contains(placed[rank]) && !doneRanks.contains(rank) && !known.contains(rank)) {
                        // the pid is unknown here (it registered on the lost host): 0 in the event log
                        batch.add(new FailedProcess(0, rank, rank < n ? rank : rank - n,
                                rank < n ? Role.CMP : Role.REP,
                                HOST_LOST));
                    }
                }
                if (ledger != null && !batch.isEmpty()) {
                    hostLost = true;
                }
            }
            if (ledger != null) {
                lostNodes.addAll(nodes);
            }
        }
        LOG.log(Level.SEVERE, "coordinator node {0}: lost child coordinator node {1} ({2}); failing its {3}"
                + " unfinished processes", new Object[] {nodeId(), node, via, batch.size()});
        if (!batch.isEmpty()) {
            events.hostLost(node, batch);
            failuresReported(batch);
        }
    }

    /** Under lock: the native ranks in the latest failure set this node knows. */
    private Set<Integer> failedNativeRanks() {
        return latest == null ? Set.of()
                : latest.failed().stream().map(FailedProcess::nativeRank).collect(Collectors.toSet());
    }

    /**
     * Under lock: the nodes that reported through {@code node} by the layout (a group leader's members) and have not
     * registered with this node directly since (adopted).
     */
    private Set<Integer> membersOf(int node) {
        Set<Integer> members = new HashSet<>();
        HierarchyLayout layout = config.layout();
        for (int other = 0; other < layout.nodeCount(); other++) {
            if (other != node && layout.parentOf(other).orElse(-1) == node && !adopted.contains(other)) {
                members.add(other);
            }
        }
        return members;
    }

    /**
     * Primary, under lock: once a host was lost and every process has finished or failed, the job is over; the
     * native launcher (Open MPI's mpirun) still waits for the lost host's processes, which nothing will ever report
     * ended, so the launcher is told that it may end it.
     */
    private void sayIfProcessesEnded() {
        int[] placed = nodeOfRank;
        if (!hostLost || processesEndedSaid || placed == null || abort != null) {
            return;
        }
        Set<Integer> failed = failedNativeRanks();
        for (int rank = 0; rank < placed.length; rank++) {
            if (!doneRanks.contains(rank) && !failed.contains(rank)) {
                return;
            }
        }
        processesEndedSaid = true;
        LOG.log(Level.INFO, "coordinator primary: every process has finished or failed after a host was lost");
        events.processesEnded();
    }

    /** A batch of failures from below (or detected here): the primary records it, everyone else passes it up. */
    void failuresReported(List<FailedProcess> failed) {
        if (failed.isEmpty() || closed) {
            return;
        }
        synchronized (lock) {
            if (ledger != null && abort != null) {
                // the job is over: these are its processes being ended, not failures to survive
                LOG.log(Level.FINE, "coordinator primary: {0} ended after the abort", failed);
                return;
            }
            if (ledger != null) {
                int[] placed = nodeOfRank;
                for (FailedProcess f : failed) {
                    if (HOST_LOST.equals(f.cause()) && placed != null && f.nativeRank() < placed.length) {
                        // a leader lost this member: the member may not come back to the primary directly
                        lostNodes.add(placed[f.nativeRank()]);
                    }
                }
                // no method reference: its first use links a class on the way to the survivors
                Optional<FailureSnapshot> next = ledger.record(failed);
                if (next.isPresent()) {
                    publishNewEpoch(next.get());
                }
            } else {
                reportedUp.addAll(failed);
                sendUp(new Message.FailureReport(failed));
            }
        }
    }

    /**
     * A process's program ended the job ({@code channel} its connection), or a child coordinator passed such an end
     * up ({@code channel} null): the primary ends the job with the program's exit code, the first such end (or
     * lost rank) wins; everyone else passes it up. A program's own verdict is never repaired: every copy runs the
     * same code, so a replica would only end the same way.
     */
    void programEnded(Channel channel, Message.ProgramEnded end) {
        if (closed) {
            return;
        }
        synchronized (lock) {
            if (channel != null) {
                endedProcesses.add(channel);
            }
            if (ledger == null) {
                sendUp(end);
            } else {
                abortJob(end.reason(), end.logicalRank(), end.exitCode());
            }
        }
    }

    /**
     * Node {@code claimingNode} says a reported pid never registered with it: the primary counts the claim (and
     * ends the job when every node has made it), everyone else passes it up.
     */
    void unownedPidReported(long pid, int claimingNode) {
        if (closed) {
            return;
        }
        synchronized (lock) {
            if (unownedVotes == null) {
                sendUp(new Message.UnownedPid(pid, claimingNode));
            } else if (claimingNode >= config.layout().nodeCount()) {
                LOG.log(Level.WARNING, "coordinator primary: ignoring an unowned-pid claim from unknown node {0}",
                        claimingNode);
            } else if (unownedVotes.vote(pid, claimingNode)) {
                abortJob("a process (pid " + pid + ") died before it registered with the coordinators;"
                        + " the job cannot continue", Message.JobAbort.NO_RANK);
            }
        }
    }

    // ---- hierarchy plumbing ----

    /** Primary only, under lock. */
    private void publishNewEpoch(FailureSnapshot snapshot) {
        List<FailedProcess> newlyFailed = newlyFailed(latest == null ? List.of() : latest.failed(), snapshot.failed());
        latest = snapshot;
        events.failuresDetected(snapshot.epoch(), newlyFailed);
        checkpoints.failuresSeen(newlyFailed.size());
        sendDown(new Message.FailureSet(snapshot.epoch(), snapshot.failed()));
        // after the survivors are told, and once they have repaired: a job's first INFO line loads and formats for
        // ~60 ms here (measured at load 20), which first stood between every job's first failure and its survivors,
        // then took that CPU from them during their repair
        failureLog.info("publishNewEpoch", "coordinator primary: epoch {0}, {1} failed", snapshot.epoch(),
                snapshot.failed().size());
        List<Integer> lost = jobShape.lostRanks(rollbacks().counted(snapshot.failed()));
        RollbackPlanner.Decision decision = lost.isEmpty() || abort != null ? null
                : rollbacks().decide(lost, snapshot.epoch(), snapshot.failed(), jobShape, checkpoints.lastCommitted(),
                        checkpoints.highestEpochSeen(), System.nanoTime());
        if (decision instanceof RollbackPlanner.RollBack r) {
            startRollback(r.message());
        } else if (decision instanceof RollbackPlanner.Relaunch why) {
            // with spares the user expects a rollback in place: say why there is none
            String instead = rollbacks().sparesSeen() ? " (no rollback in place: " + why.reason() + ")" : "";
            if (lost.size() == 1) {
                abortJob("logical rank " + lost.get(0) + " lost all its copies" + instead, lost.get(0));
            } else {
                abortJob("logical ranks " + lost.stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")) + " lost all their copies" + instead, lost.get(0));
            }
        }
        sayIfProcessesEnded();
        releaseSparesIfEnded();
    }

    /** Primary, under lock: the planner of rollbacks in place for this incarnation. */
    private RollbackPlanner rollbacks() {
        if (rollbacks == null) {
            rollbacks = new RollbackPlanner(jobShape.logicalRanks() + jobShape.replicated());
        }
        return rollbacks;
    }

    /**
     * Primary, under lock: every process and the chosen spare are told; the spare's node hands it the message. If
     * the processes are not all back in their bodies by {@link #ROLLBACK_DEADLINE}, the job is relaunched.
     */
    private void startRollback(Message.Rollback r) {
        LOG.log(Level.INFO, "coordinator primary: logical rank {0} lost all its copies; spare {1} takes it, the job"
                + " rolls back in place to epoch {2} (generation {3})",
                new Object[] {r.lostRank(), r.spareNative(), r.epoch(), r.generation()});
        rollingBack(r);
        try {
            ioGroup.schedule(() -> rollbackDeadline(r), ROLLBACK_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    /** Under lock: a rollback reaches this node's processes, its children and, if it waits here, the spare. */
    private void rollingBack(Message.Rollback r) {
        spares.assign(r.spareNative(), r);
        sendDown(r);
    }

    /** Primary, on the I/O thread: a process reported to the planner (a spare's state, a body entered). */
    private void processStateReported(Message.ProcessState s) {
        synchronized (lock) {
            RollbackPlanner planner = rollbacks();
            Message.Rollback under = planner.underWay();
            planner.stateReported(s);
            if (under != null && s.state() == Message.ProcessState.State.IN_BODY) {
                double seconds = planner.completedAt(failedNativeRanks(), System.nanoTime());
                if (seconds >= 0) {
                    events.jobRolledBack(under.epoch(), under.lostRank(), under.spareNative(), seconds);
                }
            }
        }
    }

    /** Primary, on the I/O thread: a rollback still under way at its deadline ends in a relaunch. */
    private void rollbackDeadline(Message.Rollback r) {
        synchronized (lock) {
            if (rollbacks == null || rollbacks.underWay() != r || abort != null) {
                return;
            }
            List<Integer> lagging = rollbacks.lagging(failedNativeRanks());
            abortJob("logical rank " + r.lostRank() + " lost all its copies (the rollback in place did not complete:"
                    + " native process(es) " + lagging + " did not reach Checkpoint.resilient within "
                    + ROLLBACK_DEADLINE.toSeconds() + " s)", r.lostRank());
        }
    }

    /** Primary only, under lock: the first reason to end the job is sent down the tree; later ones are moot. */
    private void abortJob(String reason, int lostRank) {
        abortJob(reason, lostRank, Message.JobAbort.NOT_A_PROGRAM_END);
    }

    private void abortJob(String reason, int lostRank, int exitCode) {
        if (abort != null) {
            return;
        }
        abort = new Message.JobAbort(reason, lostRank, exitCode);
        // recorded before anyone is told, so the event log and the launcher never lag what processes see
        if (abort.programEnded()) {
            LOG.log(Level.FINE, "coordinator primary: {0}; ending the job with exit code {1}",
                    new Object[] {reason, exitCode});
            events.programEnded(reason, lostRank, exitCode);
        } else {
            LOG.log(Level.SEVERE, "coordinator primary: {0}; aborting the job", reason);
            events.jobAborted(reason, lostRank);
        }
        sendDown(abort);
    }

    /** Under lock: to the parent, or kept until the parent has acknowledged this node. */
    private void sendUp(Message message) {
        if (uplink != null) {
            uplink.writeAndFlush(message);
        } else {
            unsentUpward.add(message);
        }
    }

    private void fromParent(Message message) {
        synchronized (lock) {
            switch (message) {
                case Message.FailureSet s -> {
                    if (latest == null || s.epoch() > latest.epoch()) {
                        latest = new FailureSnapshot(s.epoch(), s.failed());
                        sendDown(s);
                    }
                }
                case Message.JobAbort a -> {
                    if (abort == null) {
                        abort = a;
                        sendDown(a);
                    }
                }
                case Message.CheckpointDue d -> {
                    checkpoints.due(d.sequence());
                    sendDown(d);
                }
                case Message.CheckpointCommitted c -> {
                    checkpoints.committed(c.epoch());
                    sendDown(c);
                }
                case Message.SparesRelease r -> releaseSpares();
                case Message.Rollback r -> rollingBack(r);
                default -> {
                    LOG.log(Level.WARNING, "coordinator node {0}: parent sent {1}; closing uplink",
                            new Object[] {nodeId(), message.type()});
                    if (uplink != null) {
                        uplink.close();
                    }
                }
            }
        }
    }

    private void uplinkRegistered(Channel channel, int parent) {
        synchronized (lock) {
            boolean adoptedHere = parentNode >= 0 && parentNode != parent;
            uplink = channel;
            parentNode = parent;
            if (adoptedHere) {
                // what went up to the lost leader may not have gone further: the primary counts each only once
                if (!doneRanks.isEmpty()) {
                    channel.write(new Message.ProcessesDone(List.copyOf(doneRanks)));
                }
                Set<Integer> known = failedNativeRanks();
                List<FailedProcess> unseen = reportedUp.stream().filter(f -> !known.contains(f.nativeRank())).toList();
                if (!unseen.isEmpty()) {
                    channel.write(new Message.FailureReport(unseen));
                }
            }
            for (Message m : unsentUpward) {
                channel.write(m);
            }
            unsentUpward.clear();
            channel.flush();
        }
        watchWithHeartbeats(channel, "parent coordinator node " + parent, "handshake");
    }

    private void uplinkLost() {
        boolean wasLinked;
        int lostParent;
        synchronized (lock) {
            wasLinked = uplink != null;
            uplink = null;
            lostParent = parentNode;
        }
        if (closed || !wasLinked) {
            return;
        }
        if (lostParent == HierarchyLayout.PRIMARY) {
            LOG.log(Level.SEVERE, "coordinator node {0}: lost its parent coordinator, the primary", nodeId());
            parentLost.run();
            return;
        }
        // a group leader is lost (its host): the primary still runs the job, so report to it directly from now on;
        // it fails only the leader's own processes, and this node's once it has not come back within its grace
        LOG.log(Level.SEVERE, "coordinator node {0}: lost its group leader, node {1}; registering with the primary",
                new Object[] {nodeId(), lostParent});
        adoptByPrimary(System.nanoTime() + ADOPTION_TRIES.toNanos(), 20);
    }

    /** How long a node that lost its group leader keeps trying to register with the primary before it gives up. */
    static final Duration ADOPTION_TRIES = Duration.ofSeconds(5);

    /** Tries to register with the primary until {@code deadline}; gives up as a node that lost its parent does. */
    private void adoptByPrimary(long deadline, long backoffMs) {
        if (closed) {
            return;
        }
        connectTo(HierarchyLayout.PRIMARY).whenComplete((ok, failed) -> {
            if (failed == null) {
                LOG.log(Level.INFO, "coordinator node {0}: now reports to the primary", nodeId());
            } else if (closed) {
                return;
            } else if (System.nanoTime() > deadline) {
                LOG.log(Level.SEVERE, "coordinator node {0}: the primary did not take it in: {1}",
                        new Object[] {nodeId(), failed.toString()});
                parentLost.run();
            } else {
                try {
                    ioGroup.schedule(() -> adoptByPrimary(deadline, Math.min(backoffMs * 2, 500)), backoffMs,
                            TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // shutting down
                }
            }
        });
    }

    /**
     * What to do when the link to the parent is lost while the job runs (its connection closed, or it fell silent):
     * on several hosts, end this host's part of the job ({@link #endLocalProcesses}, CoordinatorMain); by default
     * nothing beyond the log line.
     */
    public void onParentLost(Runnable action) {
        this.parentLost = action == null ? () -> { } : action;
    }

    /**
     * Ends this host's part of the job once this node has lost its parent (several hosts; CoordinatorMain): the rest
     * of the job has taken or will take this host for lost (the parent fails every process placed here, as one
     * batch), and the copies elsewhere carry on. Left running, these processes would be half-alive: computing but
     * unheard, and after the network mends able to send stale MPI messages and output into a job that has repaired
     * without them. So every live process registered here is SIGKILLed (by the pid it registered with) and
     * forgotten: its end is no failure to report, there is nobody left to report to. Returns how many.
     *
     * <p>The native launcher's daemon of this host (Open MPI's orted) is left alone: ended, it would reach mpirun
     * as a daemon that failed to start, which ends the whole job (seen: "ORTE was unable to reliably start one or
     * more daemons" once the network came back to it). With no ranks left it only waits; the launcher ends it with
     * mpirun, or it ends when its connection to mpirun does.
     */
    public int endLocalProcesses() {
        List<Long> pids;
        synchronized (lock) {
            pids = liveProcesses.values().stream().map(LocalProcess::pid).toList();
            liveProcesses.clear();
        }
        int ended = 0;
        for (long pid : pids) {
            java.util.Optional<ProcessHandle> p = ProcessHandle.of(pid);
            if (p.isPresent() && p.get().destroyForcibly()) {
                ended++;
            }
        }
        return ended;
    }

    /** Under lock: bring a newly registered peer up to the current state, then flush with the REGISTERED ack. */
    private void catchUp(Channel channel) {
        if (latest != null) {
            channel.write(new Message.FailureSet(latest.epoch(), latest.failed()));
        }
        if (abort != null) {
            channel.write(abort);
        }
        channel.flush();
    }

    /** Under lock: to every child coordinator and every live local process. */
    private void sendDown(Message message) {
        for (Channel child : children.keySet()) {
            child.writeAndFlush(message).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        }
        int[] dead = message instanceof Message.FailureSet s ? nativeRanksOf(s.failed()) : null;
        for (Channel process : liveProcesses.keySet()) {
            if (dead != null) {
                LifeLock.Board board = boards.get(process);
                if (board != null) {
                    // first: the process's own thread reads it on its next turn, before the connection's thread wakes
                    board.post(((Message.FailureSet) message).epoch(), dead);
                }
            }
            process.writeAndFlush(message);
        }
    }

    // ---- observation, mostly for tests and the launcher ----

    public int liveProcessCount() {
        synchronized (lock) {
            return liveProcesses.size();
        }
    }

    public int childCount() {
        synchronized (lock) {
            return children.size();
        }
    }

    public Optional<FailureSnapshot> latestFailureSet() {
        synchronized (lock) {
            return Optional.ofNullable(latest);
        }
    }

    public Optional<String> abortReason() {
        synchronized (lock) {
            return Optional.ofNullable(abort).map(Message.JobAbort::reason);
        }
    }

    /** What a node knows of the checkpoints when the job ends for a relaunch. */
    public record CheckpointState(long lastCommitted, long highestEpochSeen) {}

    /**
     * A new incarnation of the job (fthp-run relaunches it after a rank lost every copy): the failure state starts
     * afresh (no failed set, no abort, processes of the old incarnation forgotten, late reports of their deaths
     * ignored), with {@code shape} (M may change), while links to other coordinators and the checkpoint pieces
     * stay; the checkpoint timer stops and the primary commits nothing more until {@link #settleCheckpoints}.
     * Returns what this node knows of the checkpoints. Blocks until done on the I/O thread.
     */
    public CheckpointState newIncarnation(JobShape shape) throws InterruptedException {
        try {
            return ioGroup.submit(() -> {
                synchronized (lock) {
                    for (Channel c : liveProcesses.keySet()) {
                        c.close();
                    }
                    liveProcesses.clear();
                    boards.clear();
                    endedProcesses.clear();
                    retiredPids.addAll(registeredPids);
                    registeredPids.clear();
                    unclaimedPids.clear();
                    latest = null;
                    abort = null;
                    doneRanks.clear();
                    reportedUp.clear();
                    lostNodes.clear();
                    hostLost = false;
                    processesEndedSaid = false;
                    jobShape = shape;
                    spares.reset();
                    rollbacks = null;
                    if (config.isPrimary()) {
                        ledger = new FailureLedger();
                        unownedVotes = new UnownedPidVotes(unownedVoters);
                    }
                }
                checkpoints.stopIncarnation();
                return new CheckpointState(checkpoints.lastCommitted(), checkpoints.highestEpochSeen());
            }).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("resetting node " + nodeId() + " failed", e.getCause());
        }
    }

    /**
     * After {@link #newIncarnation} on every node: the restart reads epoch {@code committed}, the relaunched job
     * checkpoints from {@code firstEpoch} on (CheckpointService#settle). Blocks until done on the I/O thread.
     */
    public void settleCheckpoints(long committed, long firstEpoch) throws InterruptedException {
        try {
            ioGroup.submit(() -> checkpoints.settle(committed, firstEpoch)).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("settling node " + nodeId() + "'s checkpoints failed", e.getCause());
        }
    }

    public JobShape jobShape() {
        return jobShape;
    }

    /** From now on lost connections are the shutdown, not failures; lets a whole hierarchy stop without noise. */
    void quiesce() {
        closed = true;
    }

    @Override
    public void close() {
        closed = true;
        if (!shutDown.compareAndSet(false, true)) {
            return;
        }
        checkpoints.close();
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        failureLog.flush();
        // No quiet period: nothing is left to say once the job is over.
        acceptGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        ioGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}

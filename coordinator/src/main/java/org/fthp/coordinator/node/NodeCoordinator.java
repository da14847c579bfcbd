package org.fthp.coordinator.node;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.fthp.coordinator.checkpoint.CheckpointService;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.FailureSnapshot;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.FramePipeline;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;
import org.fthp.coordinator.wire.ServerAuthHandler;

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
 * runs there too ({@link #reportFailedPid} hands it over), so sends are totally ordered. The state ({@link
 * NodeState}) is still guarded by its lock because the observation methods and {@link #reportFailedPid} are called
 * from other threads.
 *
 * <p>This class builds the node's parts and hands each what it uses: {@link TreeLinks} (the parent, the children,
 * sending up and down, a rollback's way down), {@link FailureEpochs} (the verdicts, a rollback in place among
 * them), {@link LocalProcesses} (registrations, spares apart, and the detectors), {@link HostLoss} (a lost child
 * coordinator), and the {@link CheckpointService}.
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
    /** A failure's INFO lines, written once the survivors have repaired (the job's first line costs CPU they need). */
    private final DeferredLog failureLog = new DeferredLog(LOG, NodeCoordinator.class, ioGroup);
    private final NodeState state;
    private final CheckpointService checkpoints;
    private final TreeLinks links;
    private final FailureEpochs epochs;
    private final LocalProcesses processes;
    private final HostLoss hostLoss;
    private final AtomicBoolean shutDown = new AtomicBoolean();
    private Channel serverChannel;

    public NodeCoordinator(CoordinatorConfig config) {
        this.config = config;
        this.state = new NodeState(config);
        try {
            this.checkpoints = new CheckpointService(config.nodeId(), config.layout().nodeCount(), config.isPrimary(),
                    config.checkpoint(), new CheckpointTree(), ioGroup, config.secret(), () -> state.addresses,
                    () -> state.jobShape);
        } catch (IOException e) {
            acceptGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            ioGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        this.links = new TreeLinks(config, state, ioGroup, checkpoints);
        this.epochs = new FailureEpochs(config, state, ioGroup, links, checkpoints, failureLog);
        this.processes = new LocalProcesses(config, state, ioGroup, links, epochs, checkpoints, failureLog);
        this.hostLoss = new HostLoss(config, state, ioGroup, epochs);
        FailureEpochs.warmFailurePath();
        // the hand-over's lambda class is spun now, not at the first failure: an empty batch does nothing
        processes.reportOnIoThread(List.of());
    }

    /** How the checkpoint service reaches the rest of the tree (called once the node is built). */
    private final class CheckpointTree implements CheckpointService.Tree {
        @Override
        public void sendDown(Message message) {
            synchronized (state.lock) {
                links.sendDown(message);
            }
        }

        @Override
        public void toPrimary(Message message) {
            links.toPrimary(message);
        }

        @Override
        public void onIoThread(Runnable task) {
            ioGroup.execute(task);
        }

        @Override
        public void committing(long epoch) {
            epochs.committing(epoch);
        }

        @Override
        public void pieceHeld(long pieceBytes) {
            synchronized (state.lock) {
                state.spares.pieceHeld(pieceBytes);
            }
        }
    }

    public CheckpointService checkpoints() {
        return checkpoints;
    }

    /** Where the primary reports detected failures and aborts (the event log, the launcher). */
    public void setJobEvents(JobEvents events) {
        state.events = events == null ? JobEvents.NONE : events;
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
        synchronized (state.lock) {
            state.unownedVoters = 1;
            if (state.unownedVotes != null) {
                state.unownedVotes = new UnownedPidVotes(1);
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
        state.nodeOfRank = nodeOfRank.clone();
    }

    /** Where each registration's native rank is told (the launcher, through CoordinatorMain's stdout). */
    public void onProcessRegistered(IntConsumer listener) {
        state.registrations = listener == null ? rank -> { } : listener;
    }

    /**
     * A timed kill on several hosts (fthp-run's --kill R@T, --inject): SIGKILLs the live process registered here
     * as native rank {@code nativeRank}, found by the pid it registered with (this host's pid), and returns that
     * pid. Its death is then detected as any other (the proxy's report, the lost connection).
     */
    public OptionalLong killRegistered(int nativeRank) {
        return processes.kill(nativeRank);
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
        return links.connectUpward(nodes);
    }

    /**
     * As {@link #connectUpward(List)} with {@code nodes} (null: the configuration's list), trying again while the
     * parent, another process, is not listening yet; fails once {@code wait} has passed.
     */
    public CompletableFuture<Void> connectUpwardWithin(List<NodeAddress> nodes, Duration wait) {
        return links.connectUpwardUntil(nodes == null ? config.nodes() : nodes, System.nanoTime() + wait.toNanos());
    }

    /**
     * Reports that a local process died, as seen by the launcher's proxy library (the connection may still look
     * open, e.g. a killed process whose socket the kernel has not torn down yet).
     *
     * @return false if no live process with that pid is registered here (already reported, finished or unknown)
     */
    public boolean reportFailedPid(long pid, String cause) {
        return processes.reportFailedPid(pid, cause, false);
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
        processes.pidReported(pid);
    }

    // ---- called by CoordinatorSession ----

    void processRegistered(Channel channel, LocalProcess process) {
        processes.registered(channel, process);
    }

    void processDone(Channel channel) {
        processes.done(channel);
    }

    /** From a child: native ranks that finished normally; recorded here, and passed up to the primary. */
    void processesDone(List<Integer> nativeRanks) {
        epochs.processesDone(nativeRanks);
    }

    void processConnectionLost(Channel channel) {
        processes.connectionLost(channel);
    }

    boolean childRegistered(Channel channel, int childNode) {
        return links.childRegistered(channel, childNode);
    }

    void childLost(Channel channel) {
        hostLoss.childLost(channel);
    }

    boolean peerRegistered(Channel channel, int peerNode) {
        return links.peerRegistered(channel, peerNode);
    }

    void toPrimary(Message message) {
        links.toPrimary(message);
    }

    /** A batch of failures from below (or detected here): the primary records it, everyone else passes it up. */
    void failuresReported(List<FailedProcess> failed) {
        epochs.failuresReported(failed);
    }

    /**
     * A process's program ended the job ({@code channel} its connection), or a child coordinator passed such an end
     * up ({@code channel} null).
     */
    void programEnded(Channel channel, Message.ProgramEnded end) {
        if (state.closed) {
            return;
        }
        if (channel != null) {
            processes.programEnded(channel, end);
        } else {
            epochs.programEnded(end);
        }
    }

    /** A process found its twin differs from it, or a child coordinator passed that up. */
    void sdcDetected(Message.SdcDetected detected) {
        if (!state.closed) {
            epochs.sdcDetected(detected);
        }
    }

    void unownedPidReported(long pid, int claimingNode) {
        epochs.unownedPidReported(pid, claimingNode);
    }

    /** How long the primary waits for a lost group leader's members to register directly (HostLoss). */
    Duration adoptionGrace() {
        return hostLoss.adoptionGrace();
    }

    /**
     * What to do when the link to the parent is lost while the job runs (its connection closed, or it fell silent):
     * on several hosts, end this host's part of the job ({@link #endLocalProcesses}, CoordinatorMain); by default
     * nothing beyond the log line.
     */
    public void onParentLost(Runnable action) {
        state.parentLost = action == null ? () -> { } : action;
    }

    /**
     * Ends this host's part of the job once this node has lost its parent (several hosts; CoordinatorMain): every
     * live process registered here is SIGKILLed and forgotten (LocalProcesses#endAll says why); returns how many.
     */
    public int endLocalProcesses() {
        return processes.endAll();
    }

    // ---- observation, mostly for tests and the launcher ----

    public int liveProcessCount() {
        synchronized (state.lock) {
            return state.liveProcesses.size();
        }
    }

    public int childCount() {
        synchronized (state.lock) {
            return state.children.size();
        }
    }

    public Optional<FailureSnapshot> latestFailureSet() {
        synchronized (state.lock) {
            return Optional.ofNullable(state.latest);
        }
    }

    public Optional<String> abortReason() {
        synchronized (state.lock) {
            return Optional.ofNullable(state.abort).map(Message.JobAbort::reason);
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
                synchronized (state.lock) {
                    for (Channel c : state.liveProcesses.keySet()) {
                        c.close();
                    }
                    state.newIncarnation(shape);
                }
                checkpoints.stopIncarnation();
                return new CheckpointState(checkpoints.lastCommitted(), checkpoints.highestEpochSeen());
            }).get();
        } catch (ExecutionException e) {
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
        } catch (ExecutionException e) {
            throw new IllegalStateException("settling node " + nodeId() + "'s checkpoints failed", e.getCause());
        }
    }

    public JobShape jobShape() {
        return state.jobShape;
    }

    /** From now on lost connections are the shutdown, not failures; lets a whole hierarchy stop without noise. */
    void quiesce() {
        state.closed = true;
    }

    @Override
    public void close() {
        state.closed = true;
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

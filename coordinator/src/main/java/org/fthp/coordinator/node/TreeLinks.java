package org.fthp.coordinator.node;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoopGroup;
import org.fthp.coordinator.checkpoint.CheckpointService;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.FailureSnapshot;
import org.fthp.coordinator.liveness.LifeLock;
import org.fthp.coordinator.spares.RollbackPlanner;
import org.fthp.coordinator.wire.LinkHeartbeat;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;
import org.fthp.coordinator.wire.PeerRole;
import org.fthp.coordinator.wire.UpstreamConnection;

/**
 * This node's place in the tree: the link to its parent (registering, what comes down it, taking the primary as
 * parent once a group leader is lost), its children's registrations, and sending up and down. Every send happens
 * on the node's one I/O thread or under the lock, so each peer sees the node's messages in one order.
 */
final class TreeLinks {
    private static final Logger LOG = Logger.getLogger(TreeLinks.class.getName());

    /** How long a node that lost its group leader keeps trying to register with the primary before it gives up. */
    static final Duration ADOPTION_TRIES = Duration.ofSeconds(5);

    private final CoordinatorConfig config;
    private final NodeState state;
    private final EventLoopGroup ioGroup;
    private final CheckpointService checkpoints;

    TreeLinks(CoordinatorConfig config, NodeState state, EventLoopGroup ioGroup, CheckpointService checkpoints) {
        this.config = config;
        this.state = state;
        this.ioGroup = ioGroup;
        this.checkpoints = checkpoints;
    }

    private int nodeId() {
        return config.nodeId();
    }

    /**
     * Connects and registers with this node's parent; completes when the parent has acknowledged. The primary
     * has no parent and completes at once.
     */
    CompletableFuture<Void> connectUpward(List<NodeAddress> nodes) {
        state.addresses = List.copyOf(nodes);
        OptionalInt parent = config.layout().parentOf(nodeId());
        if (parent.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return connectTo(parent.getAsInt());
    }

    /**
     * As {@link #connectUpward}, trying again (on the I/O thread, backing off) until {@code deadline} ({@link
     * System#nanoTime}) while the parent is not reachable yet: another process that may not be listening yet.
     */
    CompletableFuture<Void> connectUpwardUntil(List<NodeAddress> nodes, long deadline) {
        state.addresses = List.copyOf(nodes);
        OptionalInt parent = config.layout().parentOf(nodeId());
        if (parent.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> linked = new CompletableFuture<>();
        connectUntil(parent.getAsInt(), deadline, 20, linked);
        return linked;
    }

    /** Registers with {@code parent} until {@code deadline}; completes {@code linked} either way. */
    private void connectUntil(int parent, long deadline, long backoffMs, CompletableFuture<Void> linked) {
        if (state.closed) {
            linked.completeExceptionally(new IllegalStateException("node " + nodeId() + " is closed"));
            return;
        }
        connectTo(parent).whenComplete((ok, failed) -> {
            if (failed == null) {
                linked.complete(null);
            } else if (state.closed || System.nanoTime() - deadline > 0) {
                linked.completeExceptionally(failed);
            } else {
                try {
                    ioGroup.schedule(() -> connectUntil(parent, deadline, Math.min(backoffMs * 2, 500), linked),
                            backoffMs, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    linked.completeExceptionally(e);
                }
            }
        });
    }

    /** Registers with node {@code parent} (the layout's parent, or the primary once the group leader is lost). */
    private CompletableFuture<Void> connectTo(int parent) {
        NodeAddress parentAddress = state.addresses.get(parent);
        return UpstreamConnection.open(ioGroup, parentAddress.toSocketAddress(), config.secret(),
                        PeerRole.COORDINATOR, "node " + nodeId(), new Message.RegisterCoordinator(nodeId()),
                        this::fromParent, this::uplinkLost)
                .thenAccept(channel -> uplinkRegistered(channel, parent));
    }

    private void fromParent(Message message) {
        synchronized (state.lock) {
            switch (message) {
                case Message.FailureSet s -> {
                    if (state.latest == null || s.epoch() > state.latest.epoch()) {
                        state.latest = new FailureSnapshot(s.epoch(), s.failed());
                        sendDown(s);
                    }
                }
                case Message.JobAbort a -> {
                    if (state.abort == null) {
                        state.abort = a;
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
                case Message.RestorationDue d -> {
                    state.restorationDue = d.due();
                    sendDown(d);
                }
                default -> {
                    LOG.log(Level.WARNING, "coordinator node {0}: parent sent {1}; closing uplink",
                            new Object[] {nodeId(), message.type()});
                    if (state.uplink != null) {
                        state.uplink.close();
                    }
                }
            }
        }
    }

    private void uplinkRegistered(Channel channel, int parent) {
        synchronized (state.lock) {
            boolean adoptedHere = state.parentNode >= 0 && state.parentNode != parent;
            state.uplink = channel;
            state.parentNode = parent;
            if (adoptedHere) {
                // what went up to the lost leader may not have gone further: the primary counts each only once
                if (!state.doneRanks.isEmpty()) {
                    channel.write(new Message.ProcessesDone(List.copyOf(state.doneRanks)));
                }
                Set<Integer> known = state.failedNativeRanks();
                List<FailedProcess> unseen = state.reportedUp.stream()
                        .filter(f -> !known.contains(f.nativeRank())).toList();
                if (!unseen.isEmpty()) {
                    channel.write(new Message.FailureReport(unseen));
                }
            }
            for (Message m : state.unsentUpward) {
                channel.write(m);
            }
            state.unsentUpward.clear();
            channel.flush();
        }
        watchWithHeartbeats(channel, "parent coordinator node " + parent, "handshake");
    }

    private void uplinkLost() {
        boolean wasLinked;
        int lostParent;
        synchronized (state.lock) {
            wasLinked = state.uplink != null;
            state.uplink = null;
            lostParent = state.parentNode;
        }
        if (state.closed || !wasLinked) {
            return;
        }
        if (lostParent == HierarchyLayout.PRIMARY) {
            LOG.log(Level.SEVERE, "coordinator node {0}: lost its parent coordinator, the primary", nodeId());
            state.parentLost.run();
            return;
        }
        // a group leader is lost (its host): the primary still runs the job, so report to it directly from now on;
        // it fails only the leader's own processes, and this node's once it has not come back within its grace
        LOG.log(Level.SEVERE, "coordinator node {0}: lost its group leader, node {1}; registering with the primary",
                new Object[] {nodeId(), lostParent});
        CompletableFuture<Void> adopted = new CompletableFuture<>();
        connectUntil(HierarchyLayout.PRIMARY, System.nanoTime() + ADOPTION_TRIES.toNanos(), 20, adopted);
        adopted.whenComplete((ok, failed) -> {
            if (failed == null) {
                LOG.log(Level.INFO, "coordinator node {0}: now reports to the primary", nodeId());
            } else if (!state.closed) {
                LOG.log(Level.SEVERE, "coordinator node {0}: the primary did not take it in: {1}",
                        new Object[] {nodeId(), failed.toString()});
                state.parentLost.run();
            }
        });
    }

    /** A child coordinator registers: a node below this one by the layout, or (primary) one that lost its leader. */
    boolean childRegistered(Channel channel, int childNode) {
        boolean layoutChild = config.layout().isChildOf(childNode, nodeId());
        synchronized (state.lock) {
            if (!layoutChild) {
                // the primary takes in a node that lost its group leader, unless it already failed that node's
                // processes with it (they may not come back: the job has repaired without them)
                boolean adoptable = config.isPrimary() && childNode > 0 && childNode < config.layout().nodeCount()
                        && !state.lostNodes.contains(childNode) && !state.children.containsValue(childNode);
                if (!adoptable) {
                    return false;
                }
                state.adopted.add(childNode);
                LOG.log(Level.INFO, "coordinator primary: node {0} lost its group leader and reports here now",
                        childNode);
            }
            state.children.put(channel, childNode);
            channel.write(new Message.Registered(nodeId()));
            catchUp(channel);
        }
        watchWithHeartbeats(channel, "child coordinator node " + childNode, "session");
        return true;
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
     * On the I/O thread: heartbeats on a registered child or parent link (when configured), in front of the handler
     * named {@code before}; a link silent too long is closed, which its owner handles as any lost connection.
     */
    private void watchWithHeartbeats(Channel channel, String peer, String before) {
        if (!config.heartbeats().enabled() || !channel.isActive()) {
            return;
        }
        channel.pipeline().addBefore(before, "heartbeat", new LinkHeartbeat(config.heartbeats(), silentMillis -> {
            if (!state.closed) {
                LOG.log(Level.SEVERE, "coordinator node {0}: no word from {1} ({2}) for {3} ms (heartbeats {4}):"
                        + " taking it for lost", new Object[] {nodeId(), peer, channel.remoteAddress(),
                        Long.toString(silentMillis), config.heartbeats()});
            }
        }));
    }

    /**
     * A report for the primary (PIECE_HELD, PIECES_ON_DISK, CHECKPOINT_COST, PROCESS_STATE), from this node, a child
     * or a local process: the primary handles it on its I/O thread, everyone else passes it up.
     */
    void toPrimary(Message message) {
        if (!config.isPrimary()) {
            synchronized (state.lock) {
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
                default -> LOG.log(Level.WARNING, "coordinator primary: {0} is not a report for the primary",
                        message.type());
            }
        });
    }

    /** Primary, on the I/O thread: a process reported to the rollback planner (a spare's state, a body entered). */
    private void processStateReported(Message.ProcessState s) {
        synchronized (state.lock) {
            RollbackPlanner planner = state.rollbacks();
            Message.Rollback under = planner.underWay();
            boolean wasReady = planner.isReadySpare(s.nativeRank());
            planner.stateReported(s);
            if (s.state() == Message.ProcessState.State.SPARE_GONE && wasReady && state.abort == null
                    && !state.spares.released()) {
                // a waiting spare's connection ended before its release: it died, and is no failure of the program
                state.events.spareLost(s.nativeRank(), planner.readySpares());
            }
            if (under != null && s.state() == Message.ProcessState.State.IN_BODY) {
                double seconds = planner.completedAt(state.failedNativeRanks(), System.nanoTime());
                if (seconds >= 0 && under.afterSdc()) {
                    state.events.sdcRolledBack(under.epoch(), under.lostRank(), seconds);
                } else if (seconds >= 0 && under.restoresReplica()) {
                    state.events.replicaRestored(under.epoch(), under.lostRank(), under.spareNative(), seconds);
                } else if (seconds >= 0) {
                    state.events.jobRolledBack(under.epoch(), under.lostRank(), under.spareNative(), seconds);
                }
            }
            restorationDueCheck();
        }
    }

    /**
     * Primary, under lock: tells every process whether a replica is due to be restored from a spare, when that
     * changed (a copy lost, a spare ready or gone, a rollback begun or complete).
     */
    void restorationDueCheck() {
        if (!config.isPrimary() || state.abort != null) {
            return;
        }
        List<FailedProcess> failed = state.latest == null ? List.of() : state.latest.failed();
        Message.RestorationDue changed = state.restoration().changed(state.rollbacks(), failed, state.jobShape,
                checkpoints.highestEpochSeen());
        if (changed != null) {
            state.restorationDue = changed.due();
            sendDown(changed);
        }
    }

    /** Under lock: the spares finalize, this node's and every child's. */
    void releaseSpares() {
        if (state.spares.release()) {
            for (Channel child : state.children.keySet()) {
                child.writeAndFlush(new Message.SparesRelease());
            }
        }
    }

    /** Under lock: a rollback reaches this node's processes, its children and, if it waits here, the spare. */
    void rollingBack(Message.Rollback r) {
        state.lastRollback = r;
        // ahead of any later commit on this link: an epoch all of whose pieces were held before the decision may
        // still commit, and would otherwise drop the one every process now fetches
        checkpoints.rollingBackTo(r.epoch(), r.firstEpoch());
        state.spares.assign(r.spareNative(), r);
        sendDown(r);
    }

    /** Under lock: to the parent, or kept until the parent has acknowledged this node. */
    void sendUp(Message message) {
        if (state.uplink != null) {
            state.uplink.writeAndFlush(message);
        } else {
            state.unsentUpward.add(message);
        }
    }

    /** Under lock: to every child coordinator and every live local process. */
    void sendDown(Message message) {
        for (Channel child : state.children.keySet()) {
            child.writeAndFlush(message).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        }
        int[] dead = message instanceof Message.FailureSet s ? NodeState.nativeRanksOf(s.failed()) : null;
        for (Channel process : state.liveProcesses.keySet()) {
            if (dead != null) {
                LifeLock.Board board = state.boards.get(process);
                if (board != null) {
                    // first: the process's own thread reads it on its next turn, before the connection's thread wakes
                    board.post(((Message.FailureSet) message).epoch(), dead);
                }
            }
            process.writeAndFlush(message);
        }
    }

    /** Under lock: bring a newly registered peer up to the current state, then flush with the REGISTERED ack. */
    void catchUp(Channel channel) {
        if (state.latest != null) {
            channel.write(new Message.FailureSet(state.latest.epoch(), state.latest.failed()));
        }
        if (state.lastRollback != null) {
            channel.write(state.lastRollback);
        }
        if (state.abort != null) {
            channel.write(state.abort);
        }
        if (state.restorationDue) {
            channel.write(new Message.RestorationDue(true));
        }
        channel.flush();
    }
}

package org.fthp.coordinator.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;

/**
 * A child coordinator's connection ended while the job runs: its host is taken for lost (the coordinator is
 * killed with it, or the host is cut off, and the connection's end is the sign). Every process placed on that
 * node that has not finished is failed at once, as one batch, rather than one by one as their own connections would
 * time out: the survivors repair once, and a rank whose copies were all there ends the job at once. A lost group
 * leader's members get {@link #adoptionGrace} to register with the primary directly (TreeLinks) before their
 * processes are failed too. Without a placement (one host) nothing can be said about the child's processes beyond
 * the log line.
 */
final class HostLoss {
    private static final Logger LOG = Logger.getLogger(HostLoss.class.getName());

    private final CoordinatorConfig config;
    private final NodeState state;
    private final EventLoopGroup ioGroup;
    private final FailureEpochs epochs;

    HostLoss(CoordinatorConfig config, NodeState state, EventLoopGroup ioGroup, FailureEpochs epochs) {
        this.config = config;
        this.state = state;
        this.ioGroup = ioGroup;
        this.epochs = epochs;
    }

    void childLost(Channel channel) {
        Integer child;
        synchronized (state.lock) {
            child = state.children.remove(channel);
            if (child != null) {
                state.adopted.remove(child);
            }
        }
        if (state.closed || child == null) {
            return;
        }
        Set<Integer> members;
        synchronized (state.lock) {
            members = membersOf(child);
        }
        failNodes(child, Set.of(child), channel.remoteAddress());
        if (!members.isEmpty() && state.nodeOfRank != null) {
            // they may be alive behind the lost leader: each gets the time to notice and register here directly
            long graceMs = adoptionGrace().toMillis();
            LOG.log(Level.INFO, "coordinator node {0}: node {1}''s members {2} have {3} ms to report here directly",
                    new Object[] {config.nodeId(), child, members, Long.toString(graceMs)});
            try {
                ioGroup.schedule(() -> {
                    for (int member : members) {
                        boolean back;
                        synchronized (state.lock) {
                            back = state.children.containsValue(member);
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
        Duration least = TreeLinks.ADOPTION_TRIES;
        return byHeartbeats.compareTo(least) > 0 ? byHeartbeats.plus(Duration.ofSeconds(1)) : least;
    }

    /**
     * Fails, as one batch (cause host-lost), every unfinished process placed on {@code nodes}, which were lost with
     * node {@code node}'s connection ({@code via} says how, for the log); those nodes may not register again.
     */
    private void failNodes(int node, Set<Integer> nodes, Object via) {
        int[] placed = state.nodeOfRank;
        List<FailedProcess> batch = new ArrayList<>();
        synchronized (state.lock) {
            if (placed != null && state.abort == null) {
                Set<Integer> known = state.failedNativeRanks();
                int n = state.jobShape.logicalRanks();
                int program = n + state.jobShape.replicated();
                for (int rank = 0; rank < placed.length; rank++) {
                    if (nodes.contains(placed[rank]) && !state.doneRanks.contains(rank) && !known.contains(rank)) {
                        // the pid is unknown here (it registered on the lost host): 0 in the event log; a process
                        // launched as a spare goes as one (the primary knows whether it has taken a rank since)
                        batch.add(new FailedProcess(0, rank, rank < n ? rank : rank < program ? rank - n : 0,
                                rank < n ? Role.CMP : rank < program ? Role.REP : Role.SPARE,
                                NodeCoordinator.HOST_LOST));
                    }
                }
                if (state.isPrimary() && !batch.isEmpty()) {
                    state.hostLost = true;
                }
            }
            if (state.isPrimary()) {
                state.lostNodes.addAll(nodes);
            }
        }
        LOG.log(Level.SEVERE, "coordinator node {0}: lost child coordinator node {1} ({2}); failing its {3}"
                + " unfinished processes", new Object[] {config.nodeId(), node, via, batch.size()});
        if (!batch.isEmpty()) {
            state.events.hostLost(node, batch);
            epochs.failuresReported(batch);
        }
    }

    /**
     * Under lock: the nodes that reported through {@code node} by the layout (a group leader's members) and have not
     * registered with this node directly since (adopted).
     */
    private Set<Integer> membersOf(int node) {
        Set<Integer> members = new HashSet<>();
        HierarchyLayout layout = config.layout();
        for (int other = 0; other < layout.nodeCount(); other++) {
            if (other != node && layout.parentOf(other).orElse(-1) == node && !state.adopted.contains(other)) {
                members.add(other);
            }
        }
        return members;
    }
}

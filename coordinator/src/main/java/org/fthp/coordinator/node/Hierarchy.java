package org.fthp.coordinator.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;


import org.fthp.coordinator.checkpoint.CheckpointConfig;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * K node coordinators in one JVM on loopback ephemeral ports, wired into the real hierarchy — for tests and for
 * in-process emulation. All servers are bound first (only then are the ports known), then leaders connect to the
 * primary and members to their leaders; {@link #start} returns once every link is acknowledged.
 */
public final class Hierarchy implements AutoCloseable {
    private final List<NodeCoordinator> nodes;
    private final List<NodeAddress> addresses;

    private Hierarchy(List<NodeCoordinator> nodes, List<NodeAddress> addresses) {
        this.nodes = nodes;
        this.addresses = addresses;
    }

    public static Hierarchy start(int nodeCount, int groupSize, JobShape shape, JobSecret secret)
            throws Exception {
        return start(nodeCount, groupSize, shape, secret, CoordinatorConfig.DEFAULT_AUTH_TIMEOUT);
    }

    public static Hierarchy start(int nodeCount, int groupSize, JobShape shape, JobSecret secret,
                                  Duration authTimeout) throws Exception {
        return start(nodeCount, groupSize, shape, secret, authTimeout, node -> CheckpointConfig.DEFAULT);
    }

    /** With each node's checkpoint settings ({@code checkpoint.apply(nodeId)}). */
    public static Hierarchy start(int nodeCount, int groupSize, JobShape shape, JobSecret secret,
                                  Duration authTimeout, IntFunction<CheckpointConfig> checkpoint) throws Exception {
        HierarchyLayout layout = new HierarchyLayout(nodeCount, groupSize);
        List<NodeCoordinator> nodes = new ArrayList<>();
        List<NodeAddress> addresses = new ArrayList<>();
        Hierarchy hierarchy = new Hierarchy(nodes, addresses);
        try {
            for (int id = 0; id < nodeCount; id++) {
                NodeCoordinator node = new NodeCoordinator(CoordinatorConfig.local(id, layout, secret, shape)
                        .withAuthTimeout(authTimeout).withCheckpoint(checkpoint.apply(id)));
                nodes.add(node);
                addresses.add(node.start());
            }
            // Leaders first, so that once a member is linked its whole path to the primary exists.
            List<CompletableFuture<Void>> leaderLinks = new ArrayList<>();
            for (NodeCoordinator node : nodes) {
                if (layout.isLeader(node.nodeId())) {
                    leaderLinks.add(node.connectUpward(addresses));
                }
            }
            awaitAll(leaderLinks);
            List<CompletableFuture<Void>> memberLinks = new ArrayList<>();
            for (NodeCoordinator node : nodes) {
                if (!layout.isLeader(node.nodeId())) {
                    memberLinks.add(node.connectUpward(addresses));
                }
            }
            awaitAll(memberLinks);
            return hierarchy;
        } catch (Exception e) {
            hierarchy.close();
            throw e;
        }
    }

    private static void awaitAll(List<CompletableFuture<Void>> links) throws Exception {
        CompletableFuture.allOf(links.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }

    public NodeCoordinator node(int id) {
        return nodes.get(id);
    }

    public NodeAddress address(int id) {
        return addresses.get(id);
    }

    public List<NodeAddress> addresses() {
        return List.copyOf(addresses);
    }

    public int size() {
        return nodes.size();
    }

    @Override
    public void close() {
        for (NodeCoordinator node : nodes) {
            node.quiesce();
        }
        for (NodeCoordinator node : nodes) {
            node.close();
        }
    }
}

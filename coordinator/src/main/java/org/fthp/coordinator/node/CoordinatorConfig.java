package org.fthp.coordinator.node;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.fthp.coordinator.checkpoint.CheckpointConfig;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.Heartbeats;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * Everything one node coordinator needs.
 *
 * @param nodeId      this node, 0 is the primary
 * @param layout      node count and group size, identical on every node
 * @param nodes       listening address of every node, indexed by node id; may be empty when ports are only known
 *                    after binding (then pass them to {@link NodeCoordinator#connectUpward(List)})
 * @param bindHost    interface to listen on; loopback unless a multi-host run names one
 * @param port        port to listen on, 0 for an ephemeral one
 * @param secret      the per-job secret
 * @param jobShape    N and M, used by the primary to decide that a rank is lost
 * @param authTimeout how long an accepted connection may stay unauthenticated
 * @param checkpoint  piece memory bound, checkpoint directory, the primary's timer
 * @param heartbeats  between this node and its parent and children ({@link Heartbeats#OFF}: a link is lost only when
 *                    its connection closes)
 */
public record CoordinatorConfig(int nodeId, HierarchyLayout layout, List<NodeAddress> nodes, String bindHost, int port,
                                JobSecret secret, JobShape jobShape, Duration authTimeout,
                                CheckpointConfig checkpoint, Heartbeats heartbeats) {
    public static final String LOOPBACK = "127.0.0.1";
    /**
     * Generous: a rank's JVM answers the challenge only after loading Netty and the MAC classes, which
     * for many JVMs starting at once on a loaded machine takes seconds (a rank too late fails to
     * register). An unauthenticated connection costs only a socket until then.
     */
    public static final Duration DEFAULT_AUTH_TIMEOUT = Duration.ofSeconds(30);

    public CoordinatorConfig {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(jobShape, "jobShape");
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(authTimeout, "authTimeout");
        Objects.requireNonNull(checkpoint, "checkpoint");
        Objects.requireNonNull(heartbeats, "heartbeats");
        nodes = List.copyOf(nodes);
        if (nodeId < 0 || nodeId >= layout.nodeCount()) {
            throw new IllegalArgumentException("node id " + nodeId + " outside the layout");
        }
        if (!nodes.isEmpty() && nodes.size() != layout.nodeCount()) {
            throw new IllegalArgumentException("need one address per node: " + nodes.size() + " for "
                    + layout.nodeCount());
        }
    }

    /** Default heartbeats. */
    public CoordinatorConfig(int nodeId, HierarchyLayout layout, List<NodeAddress> nodes, String bindHost, int port,
                             JobSecret secret, JobShape jobShape, Duration authTimeout, CheckpointConfig checkpoint) {
        this(nodeId, layout, nodes, bindHost, port, secret, jobShape, authTimeout, checkpoint, Heartbeats.DEFAULT);
    }

    /** Default checkpoint settings and heartbeats. */
    public CoordinatorConfig(int nodeId, HierarchyLayout layout, List<NodeAddress> nodes, String bindHost, int port,
                             JobSecret secret, JobShape jobShape, Duration authTimeout) {
        this(nodeId, layout, nodes, bindHost, port, secret, jobShape, authTimeout, CheckpointConfig.DEFAULT);
    }

    /** Loopback, ephemeral port, default auth deadline, addresses supplied later. */
    public static CoordinatorConfig local(int nodeId, HierarchyLayout layout, JobSecret secret, JobShape shape) {
        return new CoordinatorConfig(nodeId, layout, List.of(), LOOPBACK, 0, secret, shape, DEFAULT_AUTH_TIMEOUT);
    }

    public CoordinatorConfig withAuthTimeout(Duration timeout) {
        return new CoordinatorConfig(nodeId, layout, nodes, bindHost, port, secret, jobShape, timeout, checkpoint,
                heartbeats);
    }

    public CoordinatorConfig withCheckpoint(CheckpointConfig settings) {
        return new CoordinatorConfig(nodeId, layout, nodes, bindHost, port, secret, jobShape, authTimeout, settings,
                heartbeats);
    }

    public CoordinatorConfig withHeartbeats(Heartbeats settings) {
        return new CoordinatorConfig(nodeId, layout, nodes, bindHost, port, secret, jobShape, authTimeout, checkpoint,
                settings);
    }

    public boolean isPrimary() {
        return nodeId == HierarchyLayout.PRIMARY;
    }
}

package org.fthp.coordinator.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;


import org.fthp.coordinator.checkpoint.CheckpointConfig;
import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.node.Hierarchy;
import org.fthp.coordinator.wire.JobSecret;

/**
 * A coordinator hierarchy plus one client per native rank, all in this JVM. Native ranks follow the replication
 * layout: {@code 0..N-1} are the computational copies of logical {@code 0..N-1}, {@code N..N+M-1} the replicas of
 * logical {@code 0..M-1}. Ranks are placed on nodes in blocks, as {@code --nodes K} does.
 */
public final class EmulatedJob implements AutoCloseable {
    public static final long FAKE_PID_BASE = 40_000;

    public final JobShape shape;
    public final JobSecret secret = JobSecret.generate();
    public final Hierarchy hierarchy;
    public final List<CoordinatorClient> clients = new ArrayList<>();
    public final List<RecordingListener> listeners = new ArrayList<>();
    private final int ranksPerNode;

    public EmulatedJob(int nodes, int groupSize, int n, int m, Duration authTimeout) throws Exception {
        this(nodes, groupSize, n, m, authTimeout, node -> CheckpointConfig.DEFAULT);
    }

    /** With each node's checkpoint settings. */
    public EmulatedJob(int nodes, int groupSize, int n, int m, Duration authTimeout,
                       IntFunction<CheckpointConfig> checkpoint) throws Exception {
        this.shape = new JobShape(n, m);
        this.hierarchy = Hierarchy.start(nodes, groupSize, shape, secret, authTimeout, checkpoint);
        int total = n + m;
        this.ranksPerNode = (total + nodes - 1) / nodes;
        try {
            for (int nativeRank = 0; nativeRank < total; nativeRank++) {
                RecordingListener listener = new RecordingListener();
                listeners.add(listener);
                clients.add(connect(nodeOf(nativeRank), nativeRank, logicalOf(nativeRank), roleOf(nativeRank), listener));
            }
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    public int logicalOf(int nativeRank) {
        return nativeRank < shape.logicalRanks() ? nativeRank : nativeRank - shape.logicalRanks();
    }

    public Role roleOf(int nativeRank) {
        return nativeRank < shape.logicalRanks() ? Role.CMP : Role.REP;
    }

    public int nodeOf(int nativeRank) {
        return Math.min(nativeRank / ranksPerNode, hierarchy.size() - 1);
    }

    public CoordinatorClient connect(int node, int nativeRank, int logicalRank, Role role, RecordingListener listener)
            throws Exception {
        return CoordinatorClient.builder()
                .coordinator(hierarchy.address(node))
                .secret(secret)
                .pid(FAKE_PID_BASE + nativeRank)
                .ranks(nativeRank, logicalRank, role)
                .listener(listener)
                .connect();
    }

    /** Listeners of every native rank except the given ones. */
    public List<RecordingListener> listenersExcept(int... nativeRanks) {
        List<RecordingListener> out = new ArrayList<>();
        outer:
        for (int r = 0; r < listeners.size(); r++) {
            for (int excluded : nativeRanks) {
                if (r == excluded) {
                    continue outer;
                }
            }
            out.add(listeners.get(r));
        }
        return out;
    }

    /** Waits once, then checks that none of the listeners heard anything. */
    public static void assertAllQuiet(List<RecordingListener> listeners, Duration period) throws InterruptedException {
        Thread.sleep(period.toMillis());
        for (RecordingListener l : listeners) {
            l.assertNoneQueued();
        }
    }

    /** Coordinators first, so the clients' disconnects are not taken as failures during teardown. */
    @Override
    public void close() {
        hierarchy.close();
        for (CoordinatorClient c : clients) {
            c.close();
        }
    }
}

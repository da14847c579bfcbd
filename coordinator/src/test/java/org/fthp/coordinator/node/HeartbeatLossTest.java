package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.testing.JobEventLog;
import org.fthp.coordinator.testing.SilentRelay;
import org.fthp.coordinator.wire.Heartbeats;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.NodeAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A child coordinator cut off from its parent without either connection closing (a relay that goes silent, as a
 * network cut does): both ends notice by the missing heartbeats alone. The parent fails the child's processes as
 * one host-lost batch, exactly as for a closed connection; the child is told it lost its parent.
 */
@Timeout(30)
class HeartbeatLossTest {
    // fast beats, but 1.5 s of silence before a link counts as lost: the suite runs this on 2 loaded cores,
    // where a JVM can stall for half a second
    private static final Heartbeats FAST = new Heartbeats(Duration.ofMillis(100), 15);

    @Test
    void aSilentChildIsLostAsOneBatchAndTheChildLearnsItLostItsParent() throws Exception {
        JobSecret secret = JobSecret.generate();
        HierarchyLayout layout = new HierarchyLayout(2, 1);
        JobShape shape = new JobShape(2, 2);   // native 0, 1 computational; 2, 3 replicas
        try (NodeCoordinator primary = node(0, layout, secret, shape);
             NodeCoordinator child = node(1, layout, secret, shape)) {
            primary.ranksPlaced(new int[] {0, 1, 1, 0});
            LinkedBlockingQueue<String> seen = JobEventLog.of(primary);
            CountDownLatch parentLost = new CountDownLatch(1);
            child.onParentLost(parentLost::countDown);
            NodeAddress primaryAddress = primary.start();
            NodeAddress childAddress = child.start();
            try (SilentRelay relay = new SilentRelay(primaryAddress)) {
                child.connectUpward(List.of(relay.address(), childAddress)).get(10, TimeUnit.SECONDS);
                awaitChildren(primary, 1);
                // linked and beating: twenty intervals of quiet without a false alarm
                assertEquals(null, seen.poll(FAST.interval().toMillis() * 20, TimeUnit.MILLISECONDS));
                assertEquals(1, primary.childCount());
                relay.cut();
                assertEquals("host 1: [1, 2]", seen.poll(10, TimeUnit.SECONDS));
                assertEquals("epoch 1: [1 host-lost, 2 host-lost]", seen.poll(5, TimeUnit.SECONDS));
                assertTrue(parentLost.await(10, TimeUnit.SECONDS), "the child heard nothing from its parent");
                assertEquals(0, primary.childCount());
            }
        }
    }

    private static NodeCoordinator node(int id, HierarchyLayout layout, JobSecret secret, JobShape shape) {
        return new NodeCoordinator(CoordinatorConfig.local(id, layout, secret, shape).withHeartbeats(FAST));
    }

    private static void awaitChildren(NodeCoordinator node, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (node.childCount() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(count, node.childCount());
    }
}

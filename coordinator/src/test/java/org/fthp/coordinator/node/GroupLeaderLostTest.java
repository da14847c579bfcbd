package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.testing.EmulatedJob;
import org.fthp.coordinator.testing.JobEventLog;
import org.fthp.coordinator.testing.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group leader lost with its host: its members are alive and must not go down with it. 4 nodes in
 * groups of 2 (node 2 leads node 3), N=M=4, two native ranks per node: 0, 1 on node 0 ... 6, 7 on node 3.
 */
@Timeout(60)
class GroupLeaderLostTest {

    private EmulatedJob job;

    @AfterEach
    void tearDown() {
        if (job != null) {
            job.close();
        }
    }

    private static LinkedBlockingQueue<String> record(NodeCoordinator primary) {
        return JobEventLog.of(primary);
    }

    private EmulatedJob placedJob() throws Exception {
        EmulatedJob j = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        for (int node = 0; node < 4; node++) {
            j.hierarchy.node(node).ranksPlaced(new int[] {0, 0, 1, 1, 2, 2, 3, 3});
        }
        return j;
    }

    /** Past the primary's wait for the members of a lost leader. */
    private Duration pastTheGrace() {
        return job.hierarchy.node(0).adoptionGrace().plusSeconds(1);
    }

    @Test
    void theMembersOfALostLeaderReportToThePrimaryAndTheirProcessesAreNotFailed() throws Exception {
        job = placedJob();
        LinkedBlockingQueue<String> seen = record(job.hierarchy.node(0));
        job.hierarchy.node(2).close();
        assertEquals("host 2: [4, 5]", seen.poll(10, TimeUnit.SECONDS));
        assertEquals("epoch 1: [4 host-lost, 5 host-lost]", seen.poll(5, TimeUnit.SECONDS));
        // node 3's processes hear of epoch 1 through the primary, their new grandparent
        RecordingListener.SetEvent set = job.listeners.get(7).nextSet(Duration.ofSeconds(10));
        assertEquals(1, set.epoch());
        assertEquals(null, seen.poll(pastTheGrace().toMillis(), TimeUnit.MILLISECONDS), "node 3 was not failed");
        assertEquals(2, job.hierarchy.node(0).childCount(), "node 1, and node 3 taken in");
        // and a failure on node 3 still reaches the primary, and everyone hears of it
        job.clients.get(6).close();
        assertEquals("epoch 2: [6 connection-lost]", seen.poll(10, TimeUnit.SECONDS));
        assertEquals(2, job.listeners.get(7).nextSet(Duration.ofSeconds(10)).epoch());
        assertEquals(1, job.listeners.get(0).nextSet(Duration.ofSeconds(10)).epoch());
        assertEquals(2, job.listeners.get(0).nextSet(Duration.ofSeconds(10)).epoch());
    }

    @Test
    void membersThatDoNotComeBackAreFailedOnceTheGraceIsOver() throws Exception {
        job = placedJob();
        LinkedBlockingQueue<String> seen = record(job.hierarchy.node(0));
        // node 3 is gone with its leader (it will not register anywhere), and its leader has no time to say so
        job.hierarchy.node(2).quiesce();
        job.hierarchy.node(3).quiesce();
        job.hierarchy.node(3).close();
        job.hierarchy.node(2).close();
        assertEquals("host 2: [4, 5]", seen.poll(10, TimeUnit.SECONDS));
        assertEquals("epoch 1: [4 host-lost, 5 host-lost]", seen.poll(5, TimeUnit.SECONDS));
        long waited = pastTheGrace().toMillis() + 5_000;
        assertEquals("host 3: [6, 7]", seen.poll(waited, TimeUnit.MILLISECONDS));
        assertEquals("epoch 2: [6 host-lost, 7 host-lost]", seen.poll(5, TimeUnit.SECONDS));
        assertTrue(seen.isEmpty(), seen.toString());
    }
}

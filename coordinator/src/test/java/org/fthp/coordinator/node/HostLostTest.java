package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.testing.EmulatedJob;
import org.fthp.coordinator.testing.JobEventLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A child coordinator lost with its host: the primary fails every unfinished process placed on
 * it at once, leaves out what finished there, names every rank that lost all its copies, and says when every
 * process has finished or failed.
 */
@Timeout(30)
class HostLostTest {

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

    @Test
    void theLostHostsUnfinishedProcessesFailInOneEpochAndTheEndIsSaidOnceTheRestFinish() throws Exception {
        job = new EmulatedJob(2, 2, 2, 2, Duration.ofSeconds(5));   // native 0, 1 on node 0; 2, 3 on node 1
        job.hierarchy.node(0).ranksPlaced(new int[] {0, 0, 1, 1});
        LinkedBlockingQueue<String> seen = record(job.hierarchy.node(0));
        job.clients.get(3).finish();   // finished on node 1 before the host goes: not a failure
        Thread.sleep(200);             // its PROCESSES_DONE reaches the primary first
        job.hierarchy.node(1).close();
        assertEquals("host 1: [2]", seen.poll(5, TimeUnit.SECONDS));
        assertEquals("epoch 1: [2 host-lost]", seen.poll(5, TimeUnit.SECONDS));
        job.clients.get(0).finish();
        assertEquals(null, seen.poll(300, TimeUnit.MILLISECONDS));   // native 1 still runs
        job.clients.get(1).finish();
        assertEquals("ended", seen.poll(5, TimeUnit.SECONDS));
        assertEquals(null, seen.poll(300, TimeUnit.MILLISECONDS));
    }

    @Test
    void ranksWhoseOnlyCopiesWereOnTheLostHostAreNamedInTheAbort() throws Exception {
        job = new EmulatedJob(2, 2, 4, 0, Duration.ofSeconds(5));   // native 0, 1 on node 0; 2, 3 on node 1
        job.hierarchy.node(0).ranksPlaced(new int[] {0, 0, 1, 1});
        LinkedBlockingQueue<String> seen = record(job.hierarchy.node(0));
        job.hierarchy.node(1).close();
        assertEquals("host 1: [2, 3]", seen.poll(5, TimeUnit.SECONDS));
        assertEquals("epoch 1: [2 host-lost, 3 host-lost]", seen.poll(5, TimeUnit.SECONDS));
        assertEquals("abort 2: logical ranks 2, 3 lost all their copies", seen.poll(5, TimeUnit.SECONDS));
        for (int r = 0; r < 2; r++) {
            assertEquals(2, job.listeners.get(r).awaitAbort(Duration.ofSeconds(5)).lostRank());
        }
    }

    @Test
    void withoutAPlacementALostChildFailsNothing() throws Exception {
        job = new EmulatedJob(2, 2, 2, 2, Duration.ofSeconds(5));
        LinkedBlockingQueue<String> seen = record(job.hierarchy.node(0));
        job.hierarchy.node(1).close();
        assertEquals(null, seen.poll(1, TimeUnit.SECONDS));
    }
}

package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.testing.EmulatedJob;
import org.fthp.coordinator.testing.RecordingListener;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deaths reported by the launcher's proxy: as on one host, every node coordinator is told of every pid
 * ({@link #reportToAll}); only the owner acts, and a pid nobody owns ends the job after the grace period.
 */
@Timeout(30)
class ProxyReportTest {
    private static final Duration SOON = Duration.ofSeconds(5);
    /** Long enough for every grace timer started by a test's reports to have fired. */
    private static final Duration PAST_GRACE = NodeCoordinator.REPORT_GRACE.plusMillis(700);

    private EmulatedJob job;
    private Hierarchy hierarchy;
    private final List<CoordinatorClient> clients = new CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() {
        if (job != null) {
            job.close();
        }
        if (hierarchy != null) {
            hierarchy.close();
        }
        clients.forEach(CoordinatorClient::close);
    }

    @Test
    void aReportedRegisteredPidIsAFailureOfTheNextEpoch() throws Exception {
        // 4 nodes in groups of 2, 2 ranks per node; native 5 (logical 1 REP) on node 2, native 6 (logical 2 REP)
        // on node 3, the deepest node.
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        reportToAll(job.hierarchy, EmulatedJob.FAKE_PID_BASE + 5);
        for (RecordingListener l : job.listenersExcept(5)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(1, set.epoch());
            assertEquals(List.of(expected(5)), set.failed());
        }
        reportToAll(job.hierarchy, EmulatedJob.FAKE_PID_BASE + 6);
        for (RecordingListener l : job.listenersExcept(5, 6)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(2, set.epoch());
            assertEquals(List.of(expected(5), expected(6)), set.failed());
        }
        // The three nodes that do not own a pid never vote it unowned alone: no abort once the grace is over.
        EmulatedJob.assertAllQuiet(job.listenersExcept(5, 6), PAST_GRACE);
    }

    @Test
    void aDuplicateReportAndTheLostConnectionAreOneFailure() throws Exception {
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        reportToAll(job.hierarchy, EmulatedJob.FAKE_PID_BASE + 3);   // logical 3 CMP on node 1
        reportToAll(job.hierarchy, EmulatedJob.FAKE_PID_BASE + 3);
        job.clients.get(3).close();
        for (RecordingListener l : job.listenersExcept(3)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(1, set.epoch());
            assertEquals(List.of(expected(3)), set.failed(), "the report came first, so it names the cause");
        }
        EmulatedJob.assertAllQuiet(job.listenersExcept(3), PAST_GRACE);

        // The other order: the connection is lost first, the report after it changes nothing.
        job.clients.get(2).close();                                  // logical 2 CMP on node 1
        for (RecordingListener l : job.listenersExcept(2, 3)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(2, set.epoch());
            assertEquals(NodeCoordinator.CONNECTION_LOST, set.failed().get(1).cause());
        }
        reportToAll(job.hierarchy, EmulatedJob.FAKE_PID_BASE + 2);
        EmulatedJob.assertAllQuiet(job.listenersExcept(2, 3), PAST_GRACE);
    }

    /**
     * Several hosts: each host's proxy reports reach only that host's coordinator, so its one "not mine" is the
     * whole vote, and the same pid reported on another host (pids are per host) is that host's matter.
     */
    @Test
    void withReportsPerHostOneNodesClaimEndsTheJob() throws Exception {
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        job.hierarchy.node(0).reportsArePerHost();
        long unknown = 4_000_321;
        job.hierarchy.node(2).pidReported(unknown);
        for (RecordingListener l : job.listeners) {
            RecordingListener.AbortEvent abort = l.awaitAbort(SOON);
            assertEquals(Message.JobAbort.NO_RANK, abort.lostRank());
            assertTrue(abort.reason().contains("pid " + unknown), abort.reason());
        }
    }

    @Test
    void aPidNoNodeRegisteredAbortsTheJobAfterTheGrace() throws Exception {
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        List<String> aborts = new CopyOnWriteArrayList<>();
        job.hierarchy.node(0).setJobEvents(new JobEvents() {
            @Override
            public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) {
            }

            @Override
            public void jobAborted(String reason, int lostRank) {
                aborts.add(lostRank + ": " + reason);
            }
        });
        long unknown = 4_000_123;
        // Three of the four nodes: not yet "nobody", whatever the time.
        for (int node = 0; node < 3; node++) {
            job.hierarchy.node(node).pidReported(unknown);
        }
        EmulatedJob.assertAllQuiet(job.listeners, PAST_GRACE);

        long start = System.nanoTime();
        job.hierarchy.node(3).pidReported(unknown);
        for (RecordingListener l : job.listeners) {
            RecordingListener.AbortEvent abort = l.awaitAbort(SOON);
            assertEquals(Message.JobAbort.NO_RANK, abort.lostRank());
            assertTrue(abort.reason().contains("pid " + unknown) && abort.reason().contains("before it registered"),
                    abort.reason());
        }
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(waitedMs >= NodeCoordinator.REPORT_GRACE.toMillis() - 50, "not before the grace: " + waitedMs);
        assertEquals(1, aborts.size(), "" + aborts);
        assertTrue(aborts.get(0).startsWith(JobEvents.NO_RANK + ": a process (pid " + unknown + ")"), aborts.get(0));
        assertTrue(job.hierarchy.node(3).abortReason().isPresent());
    }

    @Test
    void aReportedPidThatRegistersWithinTheGraceFailsAtOnce() throws Exception {
        // 2 nodes, N=2 M=2: native 0,1 on node 0, native 2,3 on node 1. Native 3 (logical 1 REP) is reported dead
        // before its registration arrives, the race of a process that registers and dies at once.
        JobSecret secret = JobSecret.generate();
        hierarchy = Hierarchy.start(2, 1, new JobShape(2, 2), secret);
        List<RecordingListener> survivors = List.of(new RecordingListener(), new RecordingListener(),
                new RecordingListener());
        for (int rank = 0; rank < 3; rank++) {
            clients.add(connect(hierarchy, secret, rank < 2 ? 0 : 1, rank, survivors.get(rank)));
        }
        reportToAll(hierarchy, EmulatedJob.FAKE_PID_BASE + 3);
        clients.add(connect(hierarchy, secret, 1, 3, new RecordingListener()));
        for (RecordingListener l : survivors) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(1, set.epoch());
            assertEquals(List.of(new FailedProcess(EmulatedJob.FAKE_PID_BASE + 3, 3, 1, Role.REP,
                    NodeCoordinator.PROXY_REPORT)), set.failed());
        }
        // Logical 1 still has its computational copy, and the pid has an owner: the job goes on.
        EmulatedJob.assertAllQuiet(survivors, PAST_GRACE);
        assertTrue(hierarchy.node(0).abortReason().isEmpty());
    }

    private static void reportToAll(Hierarchy h, long pid) {
        for (int node = 0; node < h.size(); node++) {
            h.node(node).pidReported(pid);
        }
    }

    private static CoordinatorClient connect(Hierarchy h, JobSecret secret, int node, int nativeRank,
                                             RecordingListener listener) throws Exception {
        return CoordinatorClient.builder().coordinator(h.address(node)).secret(secret)
                .pid(EmulatedJob.FAKE_PID_BASE + nativeRank)
                .ranks(nativeRank, nativeRank % 2, nativeRank < 2 ? Role.CMP : Role.REP)
                .listener(listener).connect();
    }

    private FailedProcess expected(int nativeRank) {
        return new FailedProcess(EmulatedJob.FAKE_PID_BASE + nativeRank, nativeRank, job.logicalOf(nativeRank),
                job.roleOf(nativeRank), NodeCoordinator.PROXY_REPORT);
    }
}

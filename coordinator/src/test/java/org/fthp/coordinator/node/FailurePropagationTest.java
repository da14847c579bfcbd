package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.testing.EmulatedJob;
import org.fthp.coordinator.testing.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Failure sets and aborts travel process → node → leader → primary → leaders → nodes → every survivor. */
@Timeout(30)
class FailurePropagationTest {
    private static final Duration SOON = Duration.ofSeconds(5);
    private static final Duration QUIET = Duration.ofMillis(500);

    private EmulatedJob job;

    @AfterEach
    void tearDown() {
        if (job != null) {
            job.close();
        }
    }

    @Test
    void failuresReachEverySurvivorWithIncreasingEpochs() throws Exception {
        // 4 nodes in groups of 2: node 0 primary, 1 → 0, 2 leader of group 1 → 0, 3 → 2. 2 ranks per node.
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        assertEquals(2, job.hierarchy.node(0).childCount(), "node 1 and leader 2");
        assertEquals(1, job.hierarchy.node(2).childCount(), "node 3");

        job.clients.get(1).close(); // logical 1 CMP, on node 0 (the primary)
        for (RecordingListener l : job.listenersExcept(1)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(1, set.epoch());
            assertEquals(List.of(expected(1)), set.failed());
        }

        job.clients.get(6).close(); // logical 2 REP, on node 3: the deepest path
        for (RecordingListener l : job.listenersExcept(1, 6)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(2, set.epoch());
            assertEquals(List.of(expected(1), expected(6)), set.failed());
        }
        // No abort: every logical rank still has a copy.
        EmulatedJob.assertAllQuiet(job.listenersExcept(1, 6), Duration.ofMillis(200));
        assertEquals(2, job.hierarchy.node(3).latestFailureSet().orElseThrow().epoch());
    }

    @Test
    void proxyReportOfAPidIsAFailureToo() throws Exception {
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        // native 5 = logical 1 REP lives on node 2 (a group leader).
        assertTrue(job.hierarchy.node(2).reportFailedPid(EmulatedJob.FAKE_PID_BASE + 5, "waitpid: signal 9"));
        for (RecordingListener l : job.listenersExcept(5)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(1, set.epoch());
            assertEquals(List.of(new FailedProcess(EmulatedJob.FAKE_PID_BASE + 5, 5, 1, Role.REP,
                    "waitpid: signal 9")), set.failed());
        }
        // The connection closing afterwards is the same death, not a new epoch.
        EmulatedJob.assertAllQuiet(job.listenersExcept(5), Duration.ofMillis(200));
    }

    @Test
    void losingBothCopiesAbortsTheJobNamingTheRank() throws Exception {
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        job.clients.get(1).close(); // logical 1 CMP on node 0
        for (RecordingListener l : job.listenersExcept(1)) {
            l.nextSet(SOON);
        }
        job.clients.get(5).close(); // logical 1 REP on node 2
        for (RecordingListener l : job.listenersExcept(1, 5)) {
            RecordingListener.AbortEvent abort = l.awaitAbort(SOON);
            assertEquals(1, abort.lostRank());
            assertTrue(abort.reason().contains("rank 1"), abort.reason());
        }
        assertTrue(job.hierarchy.node(3).abortReason().isPresent());
    }

    @Test
    void withoutReplicasTheFirstFailureAborts() throws Exception {
        job = new EmulatedJob(4, 2, 4, 0, Duration.ofSeconds(5)); // one rank per node
        job.clients.get(2).close();
        for (RecordingListener l : job.listenersExcept(2)) {
            RecordingListener.AbortEvent abort = l.awaitAbort(SOON);
            assertEquals(2, abort.lostRank());
        }
    }

    @Test
    void finishedProcessIsNotAFailure() throws Exception {
        job = new EmulatedJob(4, 2, 4, 4, Duration.ofSeconds(5));
        job.clients.get(3).finish(); // logical 3 CMP on node 1
        EmulatedJob.assertAllQuiet(job.listenersExcept(3), QUIET);
        assertEquals(1, job.hierarchy.node(1).liveProcessCount());
        // A real failure afterwards still works, and the finished process is not in the set.
        job.clients.get(4).close(); // logical 0 REP on node 2
        for (RecordingListener l : job.listenersExcept(3, 4)) {
            RecordingListener.SetEvent set = l.nextSet(SOON);
            assertEquals(1, set.epoch());
            assertEquals(List.of(expected(4)), set.failed());
        }
    }

    private FailedProcess expected(int nativeRank) {
        return new FailedProcess(EmulatedJob.FAKE_PID_BASE + nativeRank, nativeRank, job.logicalOf(nativeRank),
                job.roleOf(nativeRank), NodeCoordinator.CONNECTION_LOST);
    }
}

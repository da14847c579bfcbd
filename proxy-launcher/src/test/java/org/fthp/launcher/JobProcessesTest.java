package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class JobProcessesTest {

    @Test
    void theListingsSpreadOutWhileNobodyComesAndCloseUpForANewcomer() {
        long pause = JobProcesses.SAMPLE_MILLIS;
        pause = JobProcesses.nextPause(pause, 0);
        assertEquals(2 * JobProcesses.SAMPLE_MILLIS, pause);
        for (int i = 0; i < 20; i++) {
            pause = JobProcesses.nextPause(pause, 0);
        }
        assertEquals(JobProcesses.MAX_SAMPLE_MILLIS, pause);
        assertEquals(JobProcesses.SAMPLE_MILLIS, JobProcesses.nextPause(pause, 1));
    }

    @Test
    void aProcessStartedAfterTheListingsSpreadOutIsStillRememberedAndEnded() throws Exception {
        // the stand-in for mpirun starts its long-lived child after several listings found nobody new
        Process launcher = new ProcessBuilder("sh", "-c", "sleep 1; sleep 60 & wait").start();
        try {
            JobProcesses job = JobProcesses.watch(launcher);
            assertTrue(Poll.within(() -> launcher.descendants().anyMatch(JobProcessesTest::sleepsLong), 30_000));
            // the first child (sleep 1) and the late one
            assertTrue(Poll.within(() -> job.remembered() >= 2, 30_000), "remembered " + job.remembered());
            List<ProcessHandle> late = launcher.descendants().filter(JobProcessesTest::sleepsLong).toList();
            assertEquals(1, job.endSurvivors(), "the late child, the only one alive");
            assertFalse(late.getFirst().isAlive());
        } finally {
            launcher.destroyForcibly();
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static boolean sleepsLong(ProcessHandle h) {
        return h.info().arguments().map(a -> a.length == 1 && a[0].equals("60")).orElse(false);
    }
}

package org.fthp.launcher;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every process the native launcher started, remembered while it runs, so that a job ended for a restart leaves
 * nothing behind: a rank that outlives mpirun is re-parented away from it and can no longer be found as its
 * descendant, but it is still in this set. Addressed by the handles taken from our own process tree, never by name.
 */
final class JobProcesses {
    private static final long SAMPLE_MILLIS = 200;
    private static final long GRACE_MILLIS = 3000;

    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();
    private final Thread sampler;

    private JobProcesses(Process mpirun) {
        sampler = new Thread(() -> {
            while (mpirun.isAlive()) {
                mpirun.descendants().forEach(seen::add);
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fthp-run-job-processes");
        sampler.setDaemon(true);
    }

    /** Starts remembering {@code mpirun}'s descendants. */
    static JobProcesses watch(Process mpirun) {
        JobProcesses p = new JobProcesses(mpirun);
        mpirun.descendants().forEach(p.seen::add);
        p.sampler.start();
        return p;
    }

    /** Ends every remembered process still alive (SIGTERM, then SIGKILL) and waits for it; returns how many were. */
    int endSurvivors() {
        sampler.interrupt();
        int alive = 0;
        for (ProcessHandle h : seen) {
            if (h.isAlive()) {
                alive++;
                h.destroy();
            }
        }
        for (ProcessHandle h : seen) {
            if (!awaitGone(h, GRACE_MILLIS)) {
                h.destroyForcibly();
                awaitGone(h, GRACE_MILLIS);
            }
        }
        return alive;
    }

    /**
     * Ends the job at once for a restart: SIGKILL to every rank (nothing of it is kept, and a rank that is ended
     * with SIGTERM takes its time), then SIGTERM to mpirun, which by then has no child left and ends quickly (the
     * proxy library has hidden the killed ranks' deaths from it).
     */
    void killNow(Process mpirun) {
        mpirun.descendants().forEach(seen::add);
        for (ProcessHandle h : seen) {
            h.destroyForcibly();
        }
        for (ProcessHandle h : seen) {
            awaitGone(h, GRACE_MILLIS);
        }
        mpirun.destroy();
        if (!awaitGone(mpirun.toHandle(), GRACE_MILLIS)) {
            mpirun.destroyForcibly();
        }
    }

    /**
     * Polls: the JDK's exit notification for a process that is not our child waits with growing sleeps, which
     * would add seconds to a restart.
     */
    private static boolean awaitGone(ProcessHandle h, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (h.isAlive()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !h.isAlive();
            }
        }
        return true;
    }
}

package org.fthp.launcher;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every process the native launcher started, remembered while it runs, so that a job ended for a restart leaves
 * nothing behind: a rank that outlives mpirun is re-parented away from it and can no longer be found as its
 * descendant, but it is still in this set. Addressed by the handles taken from our own process tree, never by name.
 */
final class JobProcesses {
    /** How often mpirun's descendants are listed: a rank lives for seconds at least. */
    private static final long SAMPLE_MILLIS = 200;
    private static final long GRACE_MILLIS = 3000;

    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();
    private final Thread sampler;

    private JobProcesses(Process mpirun) {
        sampler = new Thread(() -> {
            while (mpirun.isAlive() && !Thread.currentThread().isInterrupted()) {
                mpirun.descendants().forEach(seen::add);
                try {
                    // the wait ends early when mpirun does
                    mpirun.onExit().get(SAMPLE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    // sample again
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
            if (!Poll.gone(h, GRACE_MILLIS)) {
                h.destroyForcibly();
                Poll.gone(h, GRACE_MILLIS);
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
            Poll.gone(h, GRACE_MILLIS);
        }
        mpirun.destroy();
        if (!Poll.gone(mpirun.toHandle(), GRACE_MILLIS)) {
            mpirun.destroyForcibly();
        }
    }
}

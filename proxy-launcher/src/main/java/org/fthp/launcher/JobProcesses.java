package org.fthp.launcher;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Every process the native launcher started, remembered while it runs, so that a job ended for a restart leaves
 * nothing behind: a rank that outlives mpirun is re-parented away from it and can no longer be found as its
 * descendant, but it is still in this set. Addressed by the handles taken from our own process tree, never by name.
 */
final class JobProcesses {
    /**
     * How often mpirun's descendants are listed while they change: a rank lives for seconds at least. Each listing
     * reads every process of the machine (some 2 ms of CPU for a hundred), taken from the ranks' cores, so once a
     * listing finds nobody new the pause doubles, up to {@link #MAX_SAMPLE_MILLIS}; a newcomer brings it back.
     */
    static final long SAMPLE_MILLIS = 200;
    static final long MAX_SAMPLE_MILLIS = 3200;
    private static final long GRACE_MILLIS = 3000;

    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();
    private final Thread sampler;

    private JobProcesses(Process mpirun) {
        sampler = new Thread(() -> {
            long pause = SAMPLE_MILLIS;
            while (mpirun.isAlive() && !Thread.currentThread().isInterrupted()) {
                pause = nextPause(pause, remember(mpirun.descendants()));
                try {
                    // the wait ends early when mpirun does
                    mpirun.onExit().get(pause, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    // sample again
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fthp-run-job-processes");
        sampler.setDaemon(true);
    }

    /** Remembers these processes; returns how many were new. */
    private int remember(Stream<ProcessHandle> processes) {
        int added = 0;
        for (ProcessHandle h : (Iterable<ProcessHandle>) processes::iterator) {
            if (seen.add(h)) {
                added++;
            }
        }
        return added;
    }

    /** The pause before the next listing, after one that found {@code newcomers} after a pause of {@code pause}. */
    static long nextPause(long pause, int newcomers) {
        return newcomers > 0 ? SAMPLE_MILLIS : Math.min(pause * 2, MAX_SAMPLE_MILLIS);
    }

    /** Starts remembering {@code mpirun}'s descendants. */
    static JobProcesses watch(Process mpirun) {
        JobProcesses p = new JobProcesses(mpirun);
        mpirun.descendants().forEach(p.seen::add);
        p.sampler.start();
        return p;
    }

    /** How many processes are remembered. */
    int remembered() {
        return seen.size();
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

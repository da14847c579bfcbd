package org.fthp.it;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every process a job started, as seen while it ran (launcher, coordinators,
 * mpirun, ranks), so that its end can be checked for leftovers. Handles, not
 * bare pids: a handle remembers the process's start time, so a reused pid is
 * never mistaken for a leftover, and nothing is ever looked up by name.
 */
final class JobProcesses {

    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

    /** Records the current descendants of {@code root} (they are re-parented, and lost from view, once it exits). */
    void sample(ProcessHandle root) {
        root.descendants().forEach(seen::add);
    }

    /**
     * Waits up to {@code grace} for every process seen to end; kills (by
     * handle) and describes those that did not.
     */
    List<String> leftovers(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        while (seen.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<ProcessHandle> alive = seen.stream().filter(ProcessHandle::isAlive).toList();
        List<String> described = alive.stream()
                .map(h -> h.pid() + " " + h.info().commandLine().orElse("?"))
                .toList();
        alive.forEach(ProcessHandle::destroyForcibly);
        return described;
    }
}

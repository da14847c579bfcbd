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
    /** Each Java process's arguments, as first seen. */
    private final java.util.Map<ProcessHandle, List<String>> arguments = new ConcurrentHashMap<>();

    /** Records the current descendants of {@code root} (they are re-parented, and lost from view, once it exits). */
    void sample(ProcessHandle root) {
        root.descendants().forEach(h -> {
            seen.add(h);
            if (!arguments.containsKey(h)) {
                // read while it runs (an ended process has no arguments to show), and again until it is java: a
                // process first seen between its fork and its exec still shows its parent's command
                ProcessHandle.Info info = h.info();
                if (info.command().map(c -> c.endsWith("/java")).orElse(false)) {
                    info.arguments().ifPresent(args -> arguments.put(h, java.util.Arrays.asList(args)));
                }
            }
        });
    }

    /**
     * How many of the processes seen ran the Java program {@code mainClass} (ranks and spares): a job that recovered
     * without a relaunch started no more than its first launch did.
     */
    long javaProcessesRunning(String mainClass) {
        // fthp-run's own JVM names the program too, after its launcher class
        return arguments.values().stream().filter(args -> args.contains(mainClass)
                && !args.contains("org.fthp.launcher.FthpRun")).count();
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

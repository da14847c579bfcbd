package org.fthp.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a program prints in a failure-free unreplicated run, run once per
 * program, size and arguments for every test class in this JVM: the
 * reference each replicated or fault-injected run must reproduce.
 */
final class FailureFreeRuns {

    private static final Map<String, List<String>> SORTED = new ConcurrentHashMap<>();

    private FailureFreeRuns() {}

    /** The run's non-blank stdout lines, sorted (ranks print in any order). */
    static List<String> sortedLines(Class<?> program, int np, Duration timeout, String... args) {
        return SORTED.computeIfAbsent(program.getName() + "@" + np + " " + String.join(" ", args),
                k -> sorted(MpiJob.run(np, timeout, program, args).assertSuccess()));
    }

    static List<String> sorted(MpiJob.Result r) {
        return r.lines().stream().filter(l -> !l.isBlank()).sorted().toList();
    }
}

package org.fthp.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a program prints in a failure-free unreplicated run, run once per program, size and arguments for every
 * test class of this build's test run: the reference each replicated or fault-injected run must reproduce. The
 * test classes run in several JVMs side by side (surefire's forks), so a reference is also kept in a file of this
 * run ({@link #RUN_PROPERTY}: Maven's build timestamp, the same for every fork of one build and new for the next,
 * so a reference never outlives the code it was made by).
 */
final class FailureFreeRuns {

    /** The build's own id, given to every fork (integration-tests/pom.xml). */
    static final String RUN_PROPERTY = "fthp.test.run";

    private static final Map<String, List<String>> SORTED = new ConcurrentHashMap<>();
    private static final Map<String, List<String>> LINES = new ConcurrentHashMap<>();

    private FailureFreeRuns() {}

    /** The run's non-blank stdout lines, sorted (ranks print in any order). */
    static List<String> sortedLines(Class<?> program, int np, Duration timeout, String... args) {
        return SORTED.computeIfAbsent(program.getName() + "@" + np + " " + String.join(" ", args),
                key -> shared(key, () -> sorted(MpiJob.run(np, timeout, program, args).assertSuccess())));
    }

    /**
     * The run's stdout lines in order, made without the program's busy time: the test programs that run long
     * enough for a timed kill to land inside them take that time as their second argument and spend it in
     * {@code RepairWorkload.compute}, which never changes a result, so the reference runs with 0 there and
     * reproduces every line of the longer run.
     */
    static List<String> linesWithoutBusyTime(Class<?> program, int np, Duration timeout, String... args) {
        String[] quick = withoutBusyTime(args);
        return LINES.computeIfAbsent(program.getName() + "@" + np + " " + String.join(" ", quick) + " (in order)",
                key -> shared(key, () -> MpiJob.run(np, timeout, program, quick).assertSuccess().lines()));
    }

    /** As {@link #sortedLines}, without the program's busy time (see {@link #linesWithoutBusyTime}). */
    static List<String> sortedLinesWithoutBusyTime(Class<?> program, int np, Duration timeout, String... args) {
        return sortedLines(program, np, timeout, withoutBusyTime(args));
    }

    /**
     * The program's own checks passed in the failure-free run: it printed "{@code <Name> OK np=<n>}". The same run
     * serves as the reference of the replicated and fault-injected runs of the program.
     */
    static List<String> assertOk(Class<?> program, int np) {
        List<String> lines = sortedLines(program, np, MpiJob.DEFAULT_TIMEOUT);
        String ok = program.getSimpleName() + " OK np=" + np;
        if (!lines.contains(ok)) {
            throw new AssertionError("expected '" + ok + "' in stdout:\n" + String.join("\n", lines));
        }
        return lines;
    }

    private static String[] withoutBusyTime(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException("the busy time is the second argument; give it: "
                    + String.join(" ", args));
        }
        String[] quick = args.clone();
        quick[1] = "0";
        return quick;
    }

    static List<String> sorted(MpiJob.Result r) {
        return r.lines().stream().filter(l -> !l.isBlank()).sorted().toList();
    }

    private static String digest(String key) {
        try {
            return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The reference another fork of this build made, else {@code run}'s, kept for the others. */
    private static List<String> shared(String key, java.util.function.Supplier<List<String>> run) {
        String build = System.getProperty(RUN_PROPERTY, "").replaceAll("[^0-9A-Za-z]", "");
        if (build.isEmpty()) {
            return run.get();
        }
        Path dir = Path.of(System.getProperty("fthp.programs", "target/classes")).toAbsolutePath().getParent()
                .resolve("failure-free-runs").resolve(build);
        Path file = dir.resolve(digest(key) + ".txt");
        try {
            if (Files.isRegularFile(file)) {
                return Files.readAllLines(file, StandardCharsets.UTF_8);
            }
            List<String> lines = run.get();
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, "run", ".tmp");
            Files.write(temp, lines, StandardCharsets.UTF_8);
            // whole or absent: the other fork never reads half a reference
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("failure-free reference " + file, e);
        }
    }
}

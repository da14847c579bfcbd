package org.fthp.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The one-line account fthp-run prints on stderr when a job ends: logical
 * ranks, replicas, point-to-point messages and bytes each side sent natively,
 * and the largest message log any process held. Every rank leaves its
 * figures in a per-job directory at Finalize; ranks that died leave none,
 * and the line says how many reported.
 */
final class RunSummary implements AutoCloseable {

    private final int ranks;
    private final int replicas;
    private final Path directory;

    private RunSummary(int ranks, int replicas, Path directory) {
        this.ranks = ranks;
        this.replicas = replicas;
        this.directory = directory;
    }

    static RunSummary create(int ranks, int replicas) throws LaunchException {
        try {
            return new RunSummary(ranks, replicas, Files.createTempDirectory("fthp-stats-"));
        } catch (IOException e) {
            throw LaunchException.environment("cannot create a temporary directory: " + e.getMessage());
        }
    }

    Path directory() {
        return directory;
    }

    /**
     * Whether every logical rank below {@code ranks} has a copy that reached Finalize (left its statistics in
     * {@code directory}). mpirun's exit code 0 does not say the job completed: the proxy reports the ranks it
     * hides as clean exits, so a job whose every process was killed ends mpirun as quietly as one that finished,
     * possibly before the coordinators' abort reached fthp-run.
     */
    static boolean everyRankFinalized(Path directory, int ranks) {
        java.util.BitSet finalized = new java.util.BitSet(ranks);
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".stats")).toList()) {
                String[] v = Files.readString(f).trim().split(" ");
                if (v.length > 1) {
                    finalized.set(Integer.parseInt(v[1]));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return finalized.nextClearBit(0) >= ranks;
    }

    /** Side totals: [0] computational copies, [1] replicas. */
    private record Totals(long[] messages, long[] bytes, int[] reported, long peakLog, long evicted,
                          int failures, int promotions, int repairs, List<Long> repairMicros, long trimMicros,
                          long pulled, long pushed) {}

    Totals totals() {
        long[] messages = new long[2];
        long[] bytes = new long[2];
        int[] reported = new int[2];
        long peak = 0;
        long evicted = 0;
        int failures = 0;
        int promotions = 0;
        int repairs = 0;
        List<Long> repairMicros = new java.util.ArrayList<>();
        long trimMicros = 0;
        long pulled = 0;
        long pushed = 0;
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".stats")).toList()) {
                List<String> lines = Files.readAllLines(f);
                if (lines.isEmpty()) {
                    continue;
                }
                String[] v = lines.get(0).trim().split(" ");
                if (v.length < 6) {
                    continue;
                }
                int side = v[0].equals("REP") ? 1 : 0;
                messages[side] += Long.parseLong(v[2]);
                bytes[side] += Long.parseLong(v[3]);
                peak = Math.max(peak, Long.parseLong(v[4]));
                evicted += v.length > 6 ? Long.parseLong(v[6]) : 0;
                if (v.length > 9) {
                    failures = Math.max(failures, Integer.parseInt(v[7]));
                    promotions += Integer.parseInt(v[8]);
                    if (!v[9].equals("-")) {
                        String[] each = v[9].split(",");
                        repairs = Math.max(repairs, each.length);
                        for (String m : each) {
                            repairMicros.add(Long.parseLong(m));
                        }
                    }
                }
                if (v.length > 10) {
                    trimMicros = Math.max(trimMicros, Long.parseLong(v[10]));
                }
                if (v.length > 12) {
                    pulled += Long.parseLong(v[11]);
                    pushed += Long.parseLong(v[12]);
                }
                reported[side]++;
            }
        } catch (IOException | NumberFormatException e) {
            // a partial summary is still a summary; the job's exit code is what matters
        }
        return new Totals(messages, bytes, reported, peak, evicted, failures, promotions, repairs, repairMicros,
                trimMicros, pulled, pushed);
    }

    void print(PrintStream err) {
        Totals t = totals();
        err.printf("fthp-run: summary: %d logical ranks, %d replicas; computational side sent %d messages "
                        + "(%s), replica side %d messages (%s); peak message log %s per process; "
                        + "log trimming %.1f ms (most in one process); %s%d of %d processes reported%n",
                ranks, replicas, t.messages()[0], bytes(t.bytes()[0]), t.messages()[1], bytes(t.bytes()[1]),
                bytes(t.peakLog()), t.trimMicros() / 1000.0,
                t.evicted() == 0 ? "" : t.evicted() + " entries evicted at the log limit; ",
                t.reported()[0] + t.reported()[1], ranks + replicas);
        SpareSummary.print(directory, err);
        if (t.pulled() > 0 || t.pushed() > 0) {
            err.printf("fthp-run: summary: %d large payloads copied from the sender's memory on its node, "
                    + "%d sent by the native library on request%n", t.pulled(), t.pushed());
        }
        if (t.failures() > 0 || t.repairs() > 0) {
            List<Long> sorted = t.repairMicros().stream().sorted().toList();
            err.printf("fthp-run: summary: %s detected, %s, %s; repair time median %.1f ms, "
                            + "max %.1f ms (over %d survivor repairs)%n",
                    counted(t.failures(), "failure"), counted(t.promotions(), "promotion"),
                    counted(t.repairs(), "repair"),
                    sorted.isEmpty() ? 0.0 : sorted.get(sorted.size() / 2) / 1000.0,
                    sorted.isEmpty() ? 0.0 : sorted.get(sorted.size() - 1) / 1000.0, sorted.size());
        }
    }

    private static String counted(long n, String thing) {
        return n + " " + thing + (n == 1 ? "" : "s");
    }

    static String bytes(long b) {
        if (b < 1024) {
            return b + " B";
        }
        if (b < 1024 * 1024) {
            return String.format("%.1f KiB", b / 1024.0);
        }
        if (b < 1024L * 1024 * 1024) {
            return String.format("%.1f MiB", b / (1024.0 * 1024));
        }
        return String.format("%.2f GiB", b / (1024.0 * 1024 * 1024));
    }

    @Override
    public void close() {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(directory);
        } catch (IOException ignored) {
            // a temporary directory; nothing else to do
        }
    }
}

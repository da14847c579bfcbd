package org.fthp.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The spares' line of the exit summary (--spares): how many there were, how many took a lost rank's place, and
 * what the unused ones' wait cost in CPU. Each spare leaves {@code spare-R.spare} in the job directory as it ends:
 * {@code used waitedSeconds cpuSecondsWaiting}.
 */
final class SpareSummary {

    private SpareSummary() {}

    /** The spares' line, or nothing when the job had none that reported. */
    static void print(Path directory, PrintStream err) {
        List<double[]> spares = read(directory);
        if (spares.isEmpty()) {
            return;
        }
        int used = 0;
        double waited = 0;
        double cpu = 0;
        for (double[] s : spares) {
            used += s[0] > 0 ? 1 : 0;
            waited = Math.max(waited, s[1]);
            cpu = Math.max(cpu, s[2]);
        }
        err.printf(java.util.Locale.ROOT, "fthp-run: summary: %d spares, %d used; an idle spare used at most %.3f s of"
                + " CPU over its %.1f s wait%n", spares.size(), used, cpu, waited);
    }

    /** Each spare's {@code [used, waitedSeconds, cpuSeconds]}; unreadable files are left out. */
    static List<double[]> read(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".spare")).sorted().map(f -> {
                try {
                    String[] v = Files.readString(f).trim().split(" ");
                    return new double[] {Double.parseDouble(v[0]), Double.parseDouble(v[1]),
                            Double.parseDouble(v[2])};
                } catch (IOException | RuntimeException e) {
                    return null;
                }
            }).filter(java.util.Objects::nonNull).toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}

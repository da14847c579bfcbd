package org.fthp.apps.hpcg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.fthp.it.InPlaceRollback;
import org.fthp.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint/restart (docs/DESIGN.md §12) on a real HPCG job: both copies of rank 1 die in the
 * middle of a timed set, and either fthp-run relaunches the job or, with a spare, the survivors roll
 * back in place and the spare takes rank 1; the job recovers the last committed checkpoint and goes
 * on with the timed sets; the run ends as a run without failures does. Both compare with one
 * failure-free run.
 */
class HpcgRestartTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(150);
    private static final String RT = "--rt=4";
    /**
     * MPI calls of a 16^3, 2-rank run before the first timed set, and of one timed set (measured with
     * FTHP_REPORT_CALLS=1: 29438 calls with 8 sets, 40698 with 12; the snapshots are not counted).
     */
    private static final int BEFORE_SETS = 6918;
    private static final int PER_SET = 2815;
    /** Half-way through timed set 2: --rt=4 holds at least 3 sets unless one set takes over 2 s. */
    private static final int KILL_CALL = BEFORE_SETS + 2 * PER_SET + PER_SET / 2;
    private static final Pattern RESUMED = Pattern.compile("(?:from|to) checkpoint epoch (\\d+)");

    @TempDir
    static Path dir;

    /** The failure-free run both tests compare with, run once. */
    private static MpiJob.Result plain;

    private static synchronized MpiJob.Result plain() throws IOException {
        if (plain == null) {
            Path plainOut = Files.createDirectory(dir.resolve("plain"));
            plain = MpiJob.runWith(List.of(), 2, TIMEOUT, Hpcg.class, "--nx=16", RT, "--out=" + plainOut)
                    .assertSuccess();
        }
        return plain;
    }

    @Test
    void bothCopiesOfARankDieMidRunAndTheRestartEndsLikeAFailureFreeRun() throws IOException {
        Path restartOut = Files.createDirectory(dir.resolve("restart"));
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--checkpoint-interval", "0.5", "--restart", "1",
                        "--kill", "1:cmp#" + KILL_CALL, "--kill", "1:rep#" + KILL_CALL), 2, TIMEOUT, Hpcg.class,
                "--nx=16", RT, "--out=" + restartOut).assertSuccess();

        assertTrue(r.stderr().contains("restart 1 of 1: rank 1 lost every copy"), r.stderr());
        endsLikeTheFailureFreeRun(r, restartOut);
    }

    /**
     * With a spare (fthp-run --spares 1) the same failure relaunches nothing: the spare takes rank 1, the survivors
     * unwind to HPCG's resilient body and run it again from the checkpoint, and the run validates with the same
     * residuals.
     */
    @Test
    void withASpareTheSurvivorsRollBackInPlaceAndTheRunEndsLikeAFailureFreeRun() throws IOException {
        Path rollbackOut = Files.createDirectory(dir.resolve("rollback"));
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--spares", "1", "--checkpoint-interval", "0.5",
                        "--restart", "1", "--kill", "1:cmp#" + KILL_CALL, "--kill", "1:rep#" + KILL_CALL), 2, TIMEOUT,
                Hpcg.class, "--nx=16", RT, "--out=" + rollbackOut).assertSuccess();

        assertTrue(r.stderr().contains("rank 1 lost every copy; spare 4 took its place and the job rolled back in place"
                + " to checkpoint epoch"), r.stderr());
        assertTrue(r.stderr().contains("1 spares, 1 used"), r.stderr());
        InPlaceRollback.assertRolledBackInPlace(r, Hpcg.class, 5);
        endsLikeTheFailureFreeRun(r, rollbackOut);
    }

    private static void endsLikeTheFailureFreeRun(MpiJob.Result r, Path out) throws IOException {
        MpiJob.Result plain = plain();
        // twin comparison is on by default: the copies' own timers are marked uncompared, nothing else differs
        assertTrue(r.stderr().matches(
                "(?s).*twin comparison covered 2 of 2 ranks; [1-9][0-9]* comparisons, .* 0 mismatches.*"), r.stderr());
        Matcher m = RESUMED.matcher(r.stderr());
        assertTrue(m.find() && Long.parseLong(m.group(1)) >= 1, "a restart from a checkpoint:\n" + r.stderr());

        // the same results, to the bit; only what follows from measured time may differ
        assertEquals(comparable(plain.stdout()), comparable(r.stdout()), r.stdout() + "\n---\n" + r.stderr());
        assertTrue(r.stdout().contains("last scaled residual=6.800806181066812E-30"), r.stdout());
        assertTrue(r.stdout().contains("HPCG result is VALID"), r.stdout());

        // every timed set the first run decided on ran once: none lost to the rollback, none repeated
        int sets = Integer.parseInt(r.stdout().replaceAll("(?s).*timed sets=(\\d+).*", "$1"));
        assertTrue(sets >= 3, "the kill landed in set 2 of " + sets);
        List<String> calls = only(out, "hpcg").lines().filter(l -> l.startsWith("Call [") && !l.contains("Iter"))
                .toList();
        assertEquals(sets, calls.size(), String.join("\n", calls));
        for (int i = 0; i < sets; i++) {
            assertEquals("Call [" + i + "] Scaled Residual [6.80081e-30]", calls.get(i));
        }
        String report = only(out, "HPCG-Benchmark_3.1_");
        assertTrue(report.contains("Iteration Count Information::Total number of optimized iterations=" + 50 * sets),
                report);
        assertTrue(report.contains("Reproducibility Information::Result=PASSED"), report);
    }

    /** The summary without what depends on measured time: the number of timed sets (so their mean), timings. */
    static List<String> comparable(String stdout) {
        return stdout.lines()
                .map(l -> l.replaceAll("timed sets=\\d+", "timed sets=N"))
                .map(l -> l.replaceAll("mean=\\S+ variance=\\S+", "mean=M variance=V"))
                .map(l -> l.replaceAll("^benchmark time .*", "benchmark time T"))
                .map(l -> l.replaceAll("rating of \\S+", "rating of G"))
                .map(l -> l.replaceAll("^report: .*", "report: F"))
                .toList();
    }

    private static String only(Path dir, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> found = files.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
            assertEquals(1, found.size(), "one " + prefix + "* file in " + dir + ": " + found);
            return Files.readString(found.get(0));
        }
    }
}

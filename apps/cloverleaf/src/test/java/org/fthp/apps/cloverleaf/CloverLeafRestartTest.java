package org.fthp.apps.cloverleaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint/restart (docs/DESIGN.md §12) on a real CloverLeaf job: both copies of rank 1 die in the
 * middle of the run, fthp-run relaunches the job, it recovers the last committed checkpoint and goes
 * on from that step; the fields, the summaries, stdout and clover.out end as in a run without failures.
 */
class CloverLeafRestartTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(150);
    /** The mixed deck on a finer mesh and for longer: about a second of steps, so several checkpoints. */
    static final String DECK = CloverLeafJobTest.MIXED_DECK
            .replace("x_cells=37", "x_cells=120").replace("y_cells=29", "y_cells=100")
            .replace("initial_timestep=0.02", "initial_timestep=0.01")
            .replace("max_timestep=0.04", "max_timestep=0.02")
            .replace("end_step=40", "end_step=60").replace("summary_frequency=5", "summary_frequency=10");
    /**
     * About step 43 of 60: the run makes 1337 MPI calls (FTHP_REPORT_CALLS=1), about 20 a step after
     * some 110 of set-up. By then the timer (0.2 s, started at MPI_Init) has had checkpoints taken and
     * committed even on an idle machine: the steps before it take longer than that.
     */
    private static final int KILL_CALL = 1000;
    private static final Pattern RESUMED = Pattern.compile("from checkpoint epoch (\\d+)");
    /** Lines that report measured time, in stdout and clover.out. */
    private static final Pattern TIMING = Pattern.compile(
            "^ (Wall clock|Average time per cell|Step time per cell|First step overhead|Benchmark:) .*");

    @Test
    void bothCopiesOfARankDieMidRunAndTheRestartEndsLikeAFailureFreeRun(@TempDir Path dir) throws IOException {
        Path deck = dir.resolve("restart.in");
        Files.writeString(deck, DECK);
        MpiJob.Result plain = MpiJob.runWith(List.of(), 2, TIMEOUT, CloverLeaf.class, "--in", deck.toString(),
                "--out", dir.resolve("plain.out").toString(), "--summary-file", dir.resolve("plain.sum").toString())
                .assertSuccess();
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--checkpoint-interval", "0.2", "--restart", "1",
                        "--kill", "1:cmp#" + KILL_CALL, "--kill", "1:rep#" + KILL_CALL), 2, TIMEOUT, CloverLeaf.class,
                "--in", deck.toString(), "--out", dir.resolve("restart.out").toString(),
                "--summary-file", dir.resolve("restart.sum").toString()).assertSuccess();

        assertTrue(r.stderr().contains("restart 1 of 1: rank 1 lost every copy"), r.stderr());
        // twin comparison is on by default: the copies' own timers are marked uncompared, nothing else differs
        assertTrue(r.stderr().matches(
                "(?s).*twin comparison covered 2 of 2 ranks; [1-9][0-9]* comparisons, .* 0 mismatches.*"), r.stderr());
        Matcher m = RESUMED.matcher(r.stderr());
        assertTrue(m.find() && Long.parseLong(m.group(1)) >= 1, "a restart from a checkpoint:\n" + r.stderr());

        // the final fields and every field summary, to the bit
        assertEquals(CloverLeafJobTest.checksum(plain), CloverLeafJobTest.checksum(r));
        assertEquals(Files.readString(dir.resolve("plain.sum")), Files.readString(dir.resolve("restart.sum")));
        // stdout and clover.out read like one run: nothing printed twice, nothing missing
        assertEquals(untimed(plain.stdout()), untimed(r.stdout()), r.stdout() + "\n---\n" + r.stderr());
        assertEquals(untimed(Files.readString(dir.resolve("plain.out"))),
                untimed(Files.readString(dir.resolve("restart.out"))));
        assertEquals(60, r.lines().stream().filter(l -> l.startsWith(" Step ")).count(), r.stdout());
    }

    static List<String> untimed(String text) {
        return text.strip().lines().map(l -> TIMING.matcher(l).matches() ? "(timing)" : l).toList();
    }
}

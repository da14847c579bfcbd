package org.fthp.apps.cloverleaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.fthp.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real jobs under fthp-run: the reference's self check, agreement across rank counts, bad decks. */
class CloverLeafJobTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    /**
     * Small but not trivial: a non-square mesh whose chunks get uneven widths, a moving band, a
     * rectangle and a circle, so waves cross chunk boundaries within a few steps. The moving state
     * spans the mesh from wall to wall and no chunk boundary cuts its edge: where one does, the
     * reference (and so this port) gives the shared vertex row the state's velocity on one chunk
     * only, and results then depend on the decomposition (see README).
     */
    static final String MIXED_DECK = """
            *clover
             state 1 density=0.2 energy=1.0
             state 2 density=1.0 energy=2.5 geometry=rectangle xmin=0.0 xmax=5.0 ymin=0.0 ymax=2.0
             state 3 density=2.0 energy=0.5 xvel=0.3 yvel=-0.2 geometry=rectangle xmin=0.0 xmax=10.0 ymin=7.0 ymax=10.0
             state 4 density=1.5 energy=1.5 geometry=circle xmin=7.0 ymin=4.0 radius=1.5
             x_cells=37
             y_cells=29
             xmin=0.0 ymin=0.0 xmax=10.0 ymax=10.0
             initial_timestep=0.02
             max_timestep=0.04
             end_step=40
             summary_frequency=5
            *endclover
            """;

    static MpiJob.Result run(int np, Path dir, String... args) {
        List<String> all = new ArrayList<>(List.of("--out", dir.resolve("clover.out").toString()));
        all.addAll(List.of(args));
        return MpiJob.runWith(List.of(), np, TIMEOUT, CloverLeaf.class, all.toArray(String[]::new));
    }

    static String checksum(MpiJob.Result r) {
        return r.lines().stream().filter(l -> l.startsWith(" Field checksum ")).findFirst()
                .orElseThrow(() -> new AssertionError("no checksum line in\n" + r.stdout())).split(" +")[3];
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 2, 4})
    void builtInTestProblemOnePasses(int np, @TempDir Path dir) throws IOException {
        MpiJob.Result r = run(np, dir).assertSuccess();
        assertTrue(r.stdout().contains("Test problem   1 is within"), r.stdout());
        assertTrue(r.stdout().contains(" This test is considered PASSED"), r.stdout() + r.stderr());
        String out = Files.readString(dir.resolve("clover.out"));
        assertTrue(out.contains(" This test is considered PASSED"), out);
        assertTrue(out.contains(" step:     75"), out);
        assertTrue(out.contains(" Step      75 time   2.9600000 control    sound    timestep   4.00E-02"), out);
    }

    @Test
    void summariesAgreeAcrossRankCounts(@TempDir Path dir) throws IOException {
        Path deck = dir.resolve("mixed.in");
        Files.writeString(deck, MIXED_DECK);
        List<double[]> base = null;
        String baseChecksum = null;
        for (int np : new int[] {1, 2, 3, 4}) {
            Path sub = Files.createDirectory(dir.resolve("np" + np));
            Path summary = sub.resolve("summary.txt");
            MpiJob.Result r = run(np, sub, "--in", deck.toString(), "--summary-file", summary.toString()).assertSuccess();
            // the final fields are bitwise the same whatever the decomposition
            String checksum = checksum(r);
            if (baseChecksum == null) {
                baseChecksum = checksum;
            }
            assertEquals(baseChecksum, checksum, "np=" + np);
            List<double[]> rows = SummaryFile.read(summary);
            assertEquals(10, rows.size(), "summaries at steps 0, 5, ..., 40 and the final one");
            if (base == null) {
                base = rows;
            } else {
                double diff = SummaryFile.maxRelativeDifference(base, rows);
                assertTrue(diff < 1e-12, "np=" + np + " differs from np=1 by " + diff);
            }
        }
    }

    @Test
    void malformedDeckFailsOnEveryRankWithTheLine(@TempDir Path dir) throws IOException {
        Path deck = dir.resolve("bad.in");
        Files.writeString(deck, "*clover\n state 1 density=0.2 energy=1.0\n x_cells=ten\n*endclover\n");
        MpiJob.Result r = run(2, dir, "--in", deck.toString());
        assertNotEquals(0, r.exitCode());
        assertTrue(r.stderr().contains("bad.in:3: 'x_cells': expected an integer, got 'ten'"), r.stderr());
    }

    @Test
    void missingDeckAndBadOptionsFail(@TempDir Path dir) {
        MpiJob.Result r = run(2, dir, "--in", dir.resolve("none.in").toString());
        assertNotEquals(0, r.exitCode());
        assertTrue(r.stderr().contains("no such file"), r.stderr());
        r = run(1, dir, "--frobnicate");
        assertEquals(2, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("unknown option '--frobnicate'"), r.stderr());
    }

    /**
     * The reference's benchmark check (960x960, 87 steps, test problem 2) at 1, 2 and 4 ranks, and
     * the largest relative difference of the field summaries from the 1-rank run, printed. Minutes,
     * so only with -Dcloverleaf.long=true.
     */
    @Test
    @EnabledIfSystemProperty(named = "cloverleaf.long", matches = "true")
    void testProblemTwoPassesAndAgreesAcrossRankCounts(@TempDir Path dir) throws IOException {
        Path deck = MpiJob.home().resolve("apps/cloverleaf/decks/clover_bm_short.in");
        List<double[]> base = null;
        String baseChecksum = null;
        for (int np : new int[] {1, 2, 4}) {
            Path sub = Files.createDirectory(dir.resolve("np" + np));
            Path summary = sub.resolve("summary.txt");
            MpiJob.Result r = MpiJob.runWith(List.of(), np, Duration.ofMinutes(10), CloverLeaf.class,
                    "--in", deck.toString(), "--out", sub.resolve("clover.out").toString(),
                    "--summary-file", summary.toString()).assertSuccess();
            assertTrue(r.stdout().contains(" This test is considered PASSED"), r.stdout());
            String check = r.lines().stream().filter(l -> l.startsWith("Test problem")).findFirst().orElseThrow();
            String checksum = checksum(r);
            List<double[]> rows = SummaryFile.read(summary);
            if (base == null) {
                base = rows;
                baseChecksum = checksum;
                System.out.println("test problem 2, np=1: " + check + "; field checksum " + checksum);
            } else {
                double diff = SummaryFile.maxRelativeDifference(base, rows);
                System.out.println("test problem 2, np=" + np + ": " + check + "; field checksum " + checksum
                        + "; largest relative summary difference from np=1: " + diff);
                assertEquals(baseChecksum, checksum, "final fields differ from np=1");
                // sums of 921,600 cells in a different order; the fields themselves are exchanged exactly
                assertTrue(diff < 1e-9, "np=" + np + " differs from np=1 by " + diff);
            }
        }
    }
}

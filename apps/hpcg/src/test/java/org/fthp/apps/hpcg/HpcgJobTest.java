package org.fthp.apps.hpcg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.fthp.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Real jobs through fthp-run: validation, agreement with the C++ reference, timed sets, bad input. */
class HpcgJobTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path out;

    /**
     * 16^3 per process, QuickPath. The residuals are what the C++ reference (HPCG 3.1 built with
     * mpicxx -O3 against the same Open MPI) prints for the same run, to the last bit.
     */
    @ParameterizedTest(name = "np={0}")
    @CsvSource({
        "1, 1x1x1, 3.7604507470801152E-39, 1",
        "2, 2x1x1, 6.800806181066812E-30, 2",
        "4, 2x2x1, 4.1144023267392394E-23, 2",
        "8, 2x2x2, 5.400133757942351E-18, 2",
    })
    void validRunMatchesTheReference(int np, String grid, double residual, int precIters) throws IOException {
        MpiJob.Result r = MpiJob.runWith(List.of(), np, TIMEOUT, Hpcg.class, "--nx=16", "--rt=0", "--out=" + out)
                .assertSuccess();
        String s = r.stdout();
        assertTrue(s.contains("grid " + grid + ", local 16x16x16"), s);
        assertTrue(s.contains("reference CG: iterations=50 scaled residual=" + residual), s);
        assertTrue(s.contains("optimized CG: iterations=50 scaled residual=" + residual), s);
        assertTrue(s.contains("spectral test PASSED: unpreconditioned max iterations=11 (expected <= 12), "
                + "preconditioned max iterations=" + precIters + " (expected <= 2)"), s);
        assertTrue(s.contains("symmetry test PASSED"), s);
        assertTrue(s.contains("HPCG result is VALID with a GFLOP/s rating of"), s);
        String report = onlyReport();
        assertTrue(report.startsWith("HPCG-Benchmark\nversion=3.1\n"), report);
        assertTrue(report.contains("Machine Summary::Distributed Processes=" + np + "\n"), report);
        assertTrue(report.contains("Linear System Information::Number of Equations=" + 4096 * np + "\n"), report);
        assertTrue(report.contains("Spectral Convergence Tests::Result=PASSED"), report);
        assertTrue(report.contains("Iteration Count Information::Result=PASSED"), report);
        assertTrue(report.contains("Final Summary::HPCG result is VALID with a GFLOP/s rating of="), report);
    }

    /** A non-zero --rt: the number of sets comes from the measured time of one CG set. */
    @Test
    void timedSetsFromTheTargetTime() throws IOException {
        MpiJob.Result r = MpiJob.runWith(List.of(), 2, TIMEOUT, Hpcg.class, "--nx=16", "--rt=2", "--out=" + out)
                .assertSuccess();
        String s = r.stdout();
        int sets = Integer.parseInt(s.replaceAll("(?s).*timed sets=(\\d+).*", "$1"));
        assertTrue(sets > 1, "a 2 s target holds more than one 16^3 set\n" + s);
        assertTrue(s.contains("last scaled residual=6.800806181066812E-30"), s);
        assertTrue(s.contains("reproducibility PASSED"), s);
        String report = onlyReport();
        assertTrue(report.contains("Iteration Count Information::Total number of optimized iterations=" + 50 * sets),
                report);
        assertTrue(report.contains("Official results execution time (sec) must be at least=1800"), report);
    }

    @Test
    void parametersFromHpcgDat() throws IOException {
        Path dat = out.resolve("hpcg.dat");
        Files.writeString(dat, "HPCG benchmark input file\nSandia National Laboratories; University of Tennessee\n"
                + "16 16 24\n0\n");
        MpiJob.Result r = MpiJob.runWith(List.of(), 2, TIMEOUT, Hpcg.class, "--dat=" + dat, "--out=" + out)
                .assertSuccess();
        assertTrue(r.stdout().contains("local 16x16x24, global 32x16x24"), r.stdout());
        assertTrue(r.stdout().contains("HPCG result is VALID"), r.stdout());
    }

    /** Job-level checks of the input errors; {@link ParamsTest} covers the parser's cases without MPI. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--nx=20 | not a multiple of 8",
        "--nx=16 --ny=16 --nz=256 | ratio min(x,y,z)/max(x,y,z)=0.0625 is too small",
        "--npx=3 --npy=1 --npz=1 --nx=16 | does not hold 2 ranks",
    })
    void badInputFailsClearlyAndFast(String args, String message) {
        MpiJob.Result r = MpiJob.runWith(List.of(), 2, Duration.ofSeconds(60), Hpcg.class,
                Stream.concat(Stream.of(args.split(" ")), Stream.of("--out=" + out)).toArray(String[]::new));
        assertEquals(Hpcg.EXIT_BAD_INPUT, exitOf(r), r.stdout() + r.stderr());
        assertTrue(r.stderr().contains("hpcg: ") && r.stderr().contains(message), r.stderr());
    }

    @Test
    void malformedHpcgDat() throws IOException {
        Path dat = out.resolve("hpcg.dat");
        Files.writeString(dat, "HPCG benchmark input file\nheader\n16 16\n60\n");
        MpiJob.Result r = MpiJob.runWith(List.of(), 2, Duration.ofSeconds(60), Hpcg.class, "--dat=" + dat);
        assertEquals(Hpcg.EXIT_BAD_INPUT, exitOf(r), r.stderr());
        assertTrue(r.stderr().contains("line 3 (nx ny nz) should hold 3 integer(s)"), r.stderr());
    }

    /** mpirun reports the first failing rank's status as its own. */
    private static int exitOf(MpiJob.Result r) {
        return r.exitCode();
    }

    private String onlyReport() throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            List<Path> reports = files.filter(p -> p.getFileName().toString().startsWith("HPCG-Benchmark_3.1_"))
                    .toList();
            assertEquals(1, reports.size(), "one report in " + out + ": " + reports);
            return Files.readString(reports.get(0));
        }
    }
}

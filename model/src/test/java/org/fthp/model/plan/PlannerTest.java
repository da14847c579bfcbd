package org.fthp.model.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fthp.model.strategy.Recovery;
import org.fthp.model.strategy.SilentErrors;
import org.fthp.model.strategy.Strategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlannerTest {

    @TempDir
    Path dir;

    private static List<Candidate> plan(String... args) {
        return new Planner(PlanArguments.parse(args)).candidates();
    }

    @Test
    void rareFailuresAndACheapCheckpointCallForCheckpointing() {
        List<Candidate> ranked = plan("--processes", "1024", "--system-mtbf", "16000", "--checkpoint", "46",
                "--work", "3h");
        assertEquals(Strategy.CHECKPOINT_RESTART, ranked.get(0).setup().strategy());
        assertTrue(ranked.get(0).efficiency() > 0.85);
    }

    @Test
    void frequentFailuresAndAnExpensiveCheckpointCallForReplicatingEveryRank() {
        List<Candidate> ranked = plan("--processes", "16384", "--system-mtbf", "1000", "--checkpoint", "359",
                "--work", "3h");
        Candidate best = ranked.get(0);
        assertTrue(best.setup().strategy().replicates(), best.label());
        assertEquals(1.0, best.degree());
        assertEquals(8192, best.setup().replicatedRanks());
    }

    @Test
    void candidatesAreRankedAndComplete() {
        List<Candidate> ranked = plan("--processes", "4096", "--system-mtbf", "3000", "--checkpoint", "100",
                "--runs", "50");
        assertEquals(1 + 2 * Planner.DEGREES.length, ranked.size());
        for (int i = 1; i < ranked.size(); i++) {
            assertTrue(ranked.get(i - 1).efficiency() >= ranked.get(i).efficiency());
        }
    }

    @Test
    void theReportSaysWhatToRunAndWhy() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new Planner(PlanArguments.parse(new String[] {"--processes", "16384", "--system-mtbf", "1000",
                "--checkpoint", "359", "--work", "3h", "--runs", "100"})).printTo(new PrintStream(bytes, true,
                StandardCharsets.UTF_8));
        String report = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("Recommended: replication of every rank"), report);
        assertTrue(report.contains("fthp-run -np 8192 --replicas 8192"), report);
        assertTrue(report.contains("Why:") && report.contains("checkpoint/restart is interrupted every"), report);
    }

    @Test
    void argumentsAndTheirDefaults() {
        PlanArguments a = PlanArguments.parse(new String[] {"--processes", "100", "--mtbf-per-process", "125y",
                "--checkpoint", "2m", "--restart", "200", "--relaunch", "50"});
        assertEquals(125 * 365.25 * 86400, a.mtbfPerProcessSeconds(), 1e-3);
        assertEquals(120, a.calibration().checkpointSeconds(100), 1e-9);
        assertEquals(200, a.calibration().restartSeconds(100), 1e-9);
        assertEquals(50, a.calibration().relaunchSeconds(), 1e-9);
        assertEquals(24 * 3600, a.workSeconds());
        PlanArguments system = PlanArguments.parse(new String[] {"--processes", "100", "--system-mtbf", "2000",
                "--checkpoint", "10"});
        assertEquals(200_000, system.mtbfPerProcessSeconds(), 1e-9);
        assertTrue(system.restartAssumed());
        assertEquals(10 + PlanArguments.ASSUMED_RELAUNCH_SECONDS, system.calibration().restartSeconds(100), 1e-9);
    }

    @Test
    void aCalibrationFileSuppliesTheCosts() throws IOException {
        Path file = dir.resolve("measured.properties");
        Files.writeString(file, "ranks=8\ncheckpoint.seconds=2\ncheckpoint.scaling=1\nrestore.seconds=3\n"
                + "relaunch.seconds=5\nrepair.seconds=0.5\nreplication.overhead=0.04\n");
        PlanArguments a = PlanArguments.parse(new String[] {"--processes", "16", "--system-mtbf", "600",
                "--calibration", file.toString()});
        assertEquals(4, a.calibration().checkpointSeconds(16), 1e-9);   // twice the ranks, twice the data
        assertEquals(5 + 6, a.calibration().restartSeconds(16), 1e-9);
        assertEquals(0.04, a.calibration().replicationOverhead());
    }

    @Test
    void badArgumentsSayWhatIsWrong() {
        assertMessage("--processes is required", "--system-mtbf", "100", "--checkpoint", "1");
        assertMessage("--processes must be a whole number >= 2, not \"abc\"", "--processes", "abc");
        assertMessage("give exactly one of --mtbf-per-process and --system-mtbf", "--processes", "8",
                "--checkpoint", "1");
        assertMessage("give exactly one of", "--processes", "8", "--checkpoint", "1", "--system-mtbf", "10",
                "--mtbf-per-process", "1y");
        assertMessage("--checkpoint (the measured checkpoint time) or --calibration is required", "--processes", "8",
                "--system-mtbf", "10");
        assertMessage("--mtbf-per-process takes a duration", "--processes", "8", "--mtbf-per-process", "soon");
        assertMessage("--checkpoint must be a duration > 0", "--processes", "8", "--checkpoint", "-3");
        assertMessage("--relaunch (50.0 s) cannot be longer than --restart (20.0 s)", "--processes", "8",
                "--system-mtbf", "10", "--checkpoint", "1", "--restart", "20", "--relaunch", "50");
        assertMessage("unknown argument \"--nodes\"", "--nodes", "8");
        assertMessage("--work needs a value", "--processes", "8", "--work");
        assertMessage("--strikes takes any or live", "--strikes", "some");
        assertMessage("cannot read calibration file", "--calibration", dir.resolve("absent").toString());
    }

    @Test
    void sparesRollbackRestorationAndSilentCorruption() {
        PlanArguments a = PlanArguments.parse(new String[] {"--processes", "100", "--system-mtbf", "600",
                "--checkpoint", "20", "--spares", "4", "--rollback-seconds", "2.5", "--sdc-rate", "1e-6"});
        assertEquals(new Recovery(4, 2.5, true), a.recovery());
        assertEquals(1e-6 / 3600, a.silentErrors().ratePerProcessSecond(), 1e-24);
        assertTrue(a.silentErrors().twinComparison());
        PlanArguments b = PlanArguments.parse(new String[] {"--processes", "100", "--system-mtbf", "600",
                "--checkpoint", "20", "--spares", "4", "--rollback-seconds", "3s", "--restore-replicas", "off",
                "--sdc", "off"});
        assertEquals(new Recovery(4, 3, false), b.recovery());
        assertFalse(b.silentErrors().twinComparison());
        PlanArguments none = PlanArguments.parse(new String[] {"--processes", "100", "--system-mtbf", "600",
                "--checkpoint", "20"});
        assertEquals(Recovery.NONE, none.recovery());
        assertEquals(SilentErrors.NONE, none.silentErrors());
    }

    @Test
    void aCheapRollbackMakesCheckpointingMoreEfficientThanRelaunching() {
        String[] common = {"--processes", "256", "--system-mtbf", "900", "--checkpoint", "30", "--restart", "300",
                "--work", "6h", "--runs", "200"};
        Candidate relaunching = find(plan(common), Strategy.CHECKPOINT_RESTART);
        String[] withSpares = java.util.stream.Stream.concat(java.util.Arrays.stream(common),
                java.util.stream.Stream.of("--spares", "4", "--rollback-seconds", "10")).toArray(String[]::new);
        Candidate rollingBack = find(plan(withSpares), Strategy.CHECKPOINT_RESTART);
        assertEquals(4, rollingBack.setup().spares());
        assertTrue(rollingBack.estimate().rollbacksMean() > 1, "rollbacks " + rollingBack.estimate().rollbacksMean());
        assertTrue(rollingBack.efficiency() > relaunching.efficiency() + 0.05,
                rollingBack.efficiency() + " rolling back vs " + relaunching.efficiency() + " relaunching");
    }

    @Test
    void silentCorruptionIsCaughtByComparingTwinsNotByCheckpointing() {
        List<Candidate> ranked = plan("--processes", "4096", "--system-mtbf", "3000", "--checkpoint", "100",
                "--work", "24h", "--sdc-rate", "1e-5", "--runs", "100");
        Candidate cr = find(ranked, Strategy.CHECKPOINT_RESTART);
        assertEquals(-Math.expm1(-1e-5 / 3600 * 4096 * 24 * 3600), cr.silentlyWrongShare(), 1e-9);
        Candidate full = ranked.stream().filter(c -> c.setup().strategy() == Strategy.REPLICATION_CHECKPOINT
                && c.degree() == 1).findFirst().orElseThrow();
        Candidate half = ranked.stream().filter(c -> c.setup().strategy() == Strategy.REPLICATION_CHECKPOINT
                && c.degree() == 0.5).findFirst().orElseThrow();
        assertTrue(full.silentlyWrongShare() < 0.1 * half.silentlyWrongShare(), full.silentlyWrongShare() + " vs "
                + half.silentlyWrongShare() + ": partial replication covers only its replicated ranks");
        assertTrue(half.silentlyWrongShare() < cr.silentlyWrongShare());
        for (int i = 1; i < ranked.size(); i++) {
            assertTrue(ranked.get(i - 1).score() >= ranked.get(i).score());
        }
        List<Candidate> unchecked = plan("--processes", "4096", "--system-mtbf", "3000", "--checkpoint", "100",
                "--work", "24h", "--sdc-rate", "1e-5", "--sdc", "off", "--runs", "100");
        assertTrue(unchecked.stream().allMatch(c -> c.silentlyWrongShare() > 0.5 * cr.silentlyWrongShare()));
    }

    @Test
    void theReportShowsSparesAndTheSilentlyWrongShare() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new Planner(PlanArguments.parse(new String[] {"--processes", "1024", "--system-mtbf", "600",
                "--checkpoint", "60", "--work", "6h", "--runs", "50", "--spares", "8", "--rollback-seconds", "5",
                "--sdc-rate", "1e-6"})).printTo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String report = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("silently wrong") && report.contains("in-place rollback 5 s"), report);
        assertTrue(report.contains("--spares 8"), report);
        assertTrue(report.contains("silent corruption: checkpoint/restart ends silently wrong in"), report);
    }

    @Test
    void badSpareAndCorruptionArgumentsSayWhatIsWrong() {
        String[] base = {"--processes", "8", "--system-mtbf", "100", "--checkpoint", "1"};
        assertMessage("--spares must be a whole number >= 0, not \"-1\"", with(base, "--spares", "-1"));
        assertMessage("--spares must be a whole number >= 0, not \"two\"", with(base, "--spares", "two"));
        assertMessage("--spares needs --rollback-seconds", with(base, "--spares", "2"));
        assertMessage("--rollback-seconds needs --spares", with(base, "--rollback-seconds", "2"));
        assertMessage("--rollback-seconds takes a duration", with(base, "--spares", "1", "--rollback-seconds", "fast"));
        assertMessage("--restore-replicas on needs --spares", with(base, "--restore-replicas", "on"));
        assertMessage("--restore-replicas takes on or off, not \"yes\"", with(base, "--restore-replicas", "yes"));
        assertMessage("--sdc-rate must be a number >= 0 (per process per hour), not \"-1e-6\"",
                with(base, "--sdc-rate", "-1e-6"));
        assertMessage("--sdc-rate must be a number", with(base, "--sdc-rate", "often"));
        assertMessage("--sdc takes on or off", with(base, "--sdc", "abort"));
        assertMessage("--spares 7 leaves fewer than 2 of the 8 processes to compute",
                with(base, "--spares", "7", "--rollback-seconds", "1"));
    }

    private static String[] with(String[] base, String... more) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(more))
                .toArray(String[]::new);
    }

    private static Candidate find(List<Candidate> ranked, Strategy strategy) {
        return ranked.stream().filter(c -> c.setup().strategy() == strategy).findFirst().orElseThrow();
    }

    @Test
    void theMainExitsWith2OnBadArgumentsAnd0WithAPlan() throws IOException, InterruptedException {
        assertEquals(2, java("bad", "--processes", "0"));
        String err = Files.readString(dir.resolve("bad.err"));
        assertTrue(err.startsWith("fthp-plan: --processes must be a whole number >= 2"), err);
        assertEquals(1, err.lines().count(), err);
        assertEquals(2, java("spares", "--processes", "8", "--system-mtbf", "100", "--checkpoint", "1", "--spares", "-1"));
        assertEquals(1, Files.readString(dir.resolve("spares.err")).lines().count());

        assertEquals(0, java("good", "--processes", "64", "--system-mtbf", "600", "--checkpoint", "20", "--runs", "20"));
        String out = Files.readString(dir.resolve("good.out"));
        assertTrue(out.contains("Recommended:"), out);
    }

    /** Runs the planner's main in its own JVM; its output in NAME.out and NAME.err; its exit code. */
    private int java(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Planner.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();   // the one we started
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the planner did not finish in 60 s");
        }
        return process.exitValue();
    }

    private static void assertMessage(String expected, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlanArguments.parse(args));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}

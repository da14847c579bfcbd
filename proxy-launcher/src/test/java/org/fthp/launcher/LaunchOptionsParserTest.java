package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LaunchOptionsParserTest {

    private final LaunchOptionsParser parser = new LaunchOptionsParser();

    private LaunchOptions parse(String... args) throws LaunchException {
        return parser.parse(List.of(args));
    }

    private LaunchException usageError(String... args) {
        LaunchException e = assertThrows(LaunchException.class, () -> parse(args));
        assertEquals(LaunchException.USAGE, e.exitCode());
        return e;
    }

    @Test
    void parsesRanksClassPathMainClassAndArguments() throws LaunchException {
        LaunchOptions o = parse("-np", "4", "--", "-Xmx1g", "-cp", "app.jar", "org.example.Main", "a", "-b");
        assertFalse(o.helpRequested());
        assertEquals(4, o.ranks());
        assertEquals(List.of("-Xmx1g"), o.javaOptions());
        assertEquals(Optional.of("app.jar"), o.userClasspath());
        assertEquals(Optional.of("org.example.Main"), o.mainClass());
        assertEquals(List.of("a", "-b"), o.programArgs());
        assertTrue(o.appJar().isEmpty());
    }

    @Test
    void coordinatorOptionsAreOursNotMpirun() throws LaunchException {
        LaunchOptions o = parse("-np", "8", "--nodes", "4", "--events", "ev.jsonl", "--", "Main");
        assertEquals(4, o.coordinators().nodes());
        assertEquals(2, o.coordinators().groupSize(), "default group size: about sqrt(nodes)");
        assertEquals(Optional.of(java.nio.file.Path.of("ev.jsonl")), o.coordinators().events());
        assertEquals(List.of(), o.mpirunArgs());
        assertEquals(3, parse("-np", "2", "--nodes", "9", "--group-size", "3", "--", "Main").coordinators().groupSize());
        assertFalse(parse("-np", "2", "--", "Main").coordinators().wanted());
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--nodes", "0", "--", "Main"));
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--group-size", "2", "--", "Main"));
        assertEquals(Optional.of(java.nio.file.Path.of("e")), parse("-np", "2", "--events", "e", "--", "Main").coordinators().events());
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--nodes", "--", "Main"));
    }

    @Test
    void sparesAreExtraProcessesWatchedByCoordinators() throws LaunchException {
        LaunchOptions o = parse("-np", "4", "--replicas", "2", "--spares", "3", "--", "Main");
        assertEquals(3, o.spares());
        assertEquals(6, o.processes());
        assertEquals(9, o.nativeProcesses());
        assertTrue(o.coordinators().wanted(), "a spare waits on a coordinator");
        assertEquals(0, parse("-np", "4", "--", "Main").spares());
        for (String bad : List.of("-1", "x", "1.5")) {
            assertThrows(LaunchException.class, () -> parse("-np", "4", "--spares", bad, "--", "Main"));
        }
        assertThrows(LaunchException.class, () -> parse("-np", "4", "--spares", "--", "Main"));
    }

    @Test
    void replicasAreRestoredFromSparesUnlessTurnedOff() throws LaunchException {
        assertTrue(parse("-np", "4", "--replicas", "2", "--spares", "1", "--", "Main").checkpoint().restoreReplicas());
        assertTrue(parse("-np", "4", "--replicas", "2", "--spares", "1", "--restore-replicas", "on", "--", "Main")
                .checkpoint().restoreReplicas());
        assertFalse(parse("-np", "4", "--replicas", "2", "--spares", "1", "--restore-replicas", "off", "--", "Main")
                .checkpoint().restoreReplicas());
        assertEquals("--restore-replicas takes on or off, not \"yes\"",
                usageError("-np", "4", "--spares", "1", "--restore-replicas", "yes", "--", "Main").getMessage());
        assertTrue(usageError("-np", "4", "--restore-replicas", "on", "--", "Main").getMessage()
                .startsWith("--restore-replicas on needs --spares"));
        usageError("-np", "4", "--spares", "1", "--restore-replicas", "--", "Main");
    }

    @Test
    void replicationOptions() throws LaunchException {
        LaunchOptions o = parse("-np", "4", "--replicas", "3", "--show-replica-output", "--", "Main");
        assertEquals(4, o.ranks());
        assertEquals(3, o.replicas());
        assertEquals(7, o.processes());
        assertTrue(o.showReplicaOutput());
        assertEquals(List.of(), o.mpirunArgs());
        assertEquals(0, parse("-np", "4", "--", "Main").replicas());
        assertEquals(8, parse("-np", "8", "--degree", "1", "--", "Main").replicas());
        assertEquals(4, parse("-np", "8", "--degree", "0.5", "--", "Main").replicas());
        assertEquals(0, parse("-np", "8", "--degree", "0", "--", "Main").replicas());
        assertThrows(LaunchException.class, () -> parse("-np", "4", "--replicas", "5", "--", "Main"));
        assertThrows(LaunchException.class, () -> parse("-np", "4", "--replicas", "-1", "--", "Main"));
        assertThrows(LaunchException.class, () -> parse("-np", "4", "--degree", "1.5", "--", "Main"));
        assertThrows(LaunchException.class, () -> parse("-np", "4", "--replicas", "1", "--degree", "1", "--", "Main"));
    }

    @Test
    void failureInjectionOptions() throws LaunchException {
        LaunchOptions o = parse("-np", "4", "--replicas", "1", "--kill", "1@2", "--kill", "0:rep@3.5", "--inject", "weibull",
                "--mtbf-per-process", "100", "--shape", "0.5", "--seed", "9", "--", "Main");
        assertEquals(2, o.kills().kills().size());
        assertEquals(new org.fthp.launcher.inject.KillPlan.Weibull(100, true, 0.5, 9), o.kills().weibull().orElseThrow());
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--inject", "weibull", "--", "Main"));
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--inject", "poisson", "--mtbf", "1", "--", "Main"));
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--mtbf", "1", "--", "Main"));
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--kill", "a@b", "--", "Main"));
        assertFalse(parse("-np", "2", "--", "Main").kills().wanted());
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--kill", "2@1", "--", "Main"), "no rank 2");
        assertThrows(LaunchException.class, () -> parse("-np", "2", "--replicas", "1", "--kill", "1:rep#3", "--", "Main"),
                "rank 1 has no replica");
        assertEquals(1, parse("-np", "2", "--replicas", "2", "--kill", "1:rep#3", "--", "Main").kills().callKills().size());
    }

    @Test
    void acceptsEveryRanksSpelling() throws LaunchException {
        assertEquals(3, parse("-n", "3", "--", "Main").ranks());
        assertEquals(5, parse("--np", "5", "--", "Main").ranks());
    }

    @Test
    void passesUnknownLauncherTokensToMpirunInOrder() throws LaunchException {
        LaunchOptions o = parse("--mca", "btl", "self,vader", "-np", "2", "--verbose", "--report-bindings", "--", "Main");
        assertEquals(List.of("--mca", "btl", "self,vader", "--report-bindings"), o.mpirunArgs());
        assertTrue(o.verbose());
    }

    @Test
    void helpWinsBeforeSeparator() throws LaunchException {
        assertTrue(parse("-h").helpRequested());
        assertTrue(parse("-np", "x", "--help").helpRequested());
    }

    @Test
    void helpAfterSeparatorBelongsToTheProgram() throws LaunchException {
        LaunchOptions o = parse("-np", "1", "--", "Main", "--help");
        assertFalse(o.helpRequested());
        assertEquals(List.of("--help"), o.programArgs());
    }

    @Test
    void rejectsMissingOrInvalidRanks() {
        usageError("--", "Main");
        usageError("-np");
        usageError("-np", "zero", "--", "Main");
        usageError("-np", "0", "--", "Main");
        usageError("-np", "-3", "--", "Main");
        usageError("-np", "2", "-n", "2", "--", "Main");
    }

    @Test
    void rejectsMissingSeparatorOrEmptyJavaPart() {
        assertTrue(usageError("-np", "2", "Main").getMessage().contains("--"));
        assertTrue(usageError("-np", "2", "--").getMessage().contains("nothing after"));
        usageError("-np", "2", "--", "-Xmx1g");
        usageError("-np", "2", "--", "-cp");
    }

    @Test
    void jarTakesItsFileAndTheRestAreProgramArguments() throws LaunchException {
        LaunchOptions o = parse("-np", "2", "--", "-ea", "-jar", "app.jar", "x", "-cp", "y");
        assertEquals(Optional.of(Path.of("app.jar")), o.appJar());
        assertTrue(o.mainClass().isEmpty());
        assertEquals(List.of("-ea"), o.javaOptions());
        assertEquals(List.of("x", "-cp", "y"), o.programArgs());
    }

    @Test
    void rejectsJarWithoutFile() {
        assertTrue(usageError("-np", "2", "--", "-jar").getMessage().contains("-jar"));
    }

    @Test
    void lastClassPathWinsInEverySpelling() throws LaunchException {
        assertEquals(Optional.of("b"), parse("-np", "1", "--", "-cp", "a", "-classpath", "b", "Main").userClasspath());
        assertEquals(Optional.of("c"), parse("-np", "1", "--", "--class-path", "c", "Main").userClasspath());
        assertEquals(Optional.of("d"), parse("-np", "1", "--", "--class-path=d", "Main").userClasspath());
    }

    @Test
    void keepsValuesOfJavaOptionsThatTakeOne() throws LaunchException {
        LaunchOptions o = parse("-np", "1", "--", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "Main");
        assertEquals(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED"), o.javaOptions());
        assertEquals(Optional.of("Main"), o.mainClass());
    }

    @Test
    void rejectsMainModuleLaunch() {
        usageError("-np", "1", "--", "-m", "mod/org.example.Main");
    }

    @Test
    void checkpointAndRestartOptionsAreOurs() throws LaunchException {
        LaunchOptions o = parse("-np", "4", "--replicas", "2", "--checkpoint-interval", "auto", "--checkpoint-dir",
                "/tmp/ck", "--checkpoint-memory", "64M", "--checkpoint-disk-every", "4", "--restart", "3",
                "--restart-replicas", "4", "--mtbf-per-process", "3600", "--", "-cp", "a.jar", "Main");
        CheckpointPlan c = o.checkpoint();
        assertEquals(Optional.of("auto"), c.interval());
        assertEquals(Optional.of(Path.of("/tmp/ck")), c.directory());
        assertEquals(64L << 20, c.memoryBytes());
        assertEquals(4, c.diskEvery());
        assertEquals(3, c.restarts());
        assertEquals(2, c.replicasOf(0, o.replicas()));
        assertEquals(4, c.replicasOf(1, o.replicas()));
        assertEquals(3600.0, c.mtbfPerProcess().getAsDouble());
        assertTrue(o.mpirunArgs().isEmpty(), o.mpirunArgs().toString());
        assertEquals(1, o.coordinators().nodes(), "checkpoints need a coordinator");
    }

    @Test
    void aSystemMtbfGivesTheAutoIntervalAPerProcessOne() throws LaunchException {
        LaunchOptions o = parse("-np", "4", "--replicas", "4", "--inject", "weibull", "--mtbf", "10",
                "--checkpoint-interval", "auto", "--", "Main");
        assertEquals(80.0, o.checkpoint().mtbfPerProcess().getAsDouble(), 1e-9);
        assertEquals(Optional.of("2.5"), parse("-np", "1", "--checkpoint-interval", "2.5", "--", "Main")
                .checkpoint().interval());
    }

    @Test
    void withoutCheckpointOptionsNothingChanges() throws LaunchException {
        LaunchOptions o = parse("-np", "2", "--", "Main");
        assertFalse(o.checkpoint().wanted());
        assertEquals(0, o.checkpoint().restarts());
        assertEquals(0, o.coordinators().nodes());
    }

    @Test
    void badCheckpointOptionsAreUsageErrors() {
        assertTrue(usageError("-np", "2", "--checkpoint-interval", "often", "--", "Main").getMessage()
                .contains("auto"));
        assertTrue(usageError("-np", "2", "--checkpoint-interval", "0", "--", "Main").getMessage()
                .contains("--checkpoint-interval"));
        assertTrue(usageError("-np", "2", "--restart", "-1", "--", "Main").getMessage().contains("--restart"));
        assertTrue(usageError("-np", "2", "--restart-replicas", "1", "--", "Main").getMessage()
                .contains("needs --restart"));
        assertTrue(usageError("-np", "2", "--restart", "1", "--restart-replicas", "3", "--", "Main").getMessage()
                .contains("more than the 2 ranks"));
        assertTrue(usageError("-np", "2", "--checkpoint-memory", "lots", "--", "Main").getMessage()
                .contains("--checkpoint-memory"));
        assertTrue(usageError("-np", "2", "--checkpoint-disk-every", "2", "--", "Main").getMessage()
                .contains("--checkpoint-dir"));
        assertTrue(usageError("-np", "2", "--mtbf-per-process", "5", "--", "Main").getMessage()
                .contains("--inject weibull"));
    }

    @Test
    void resumeIsAutoByDefaultAndNeedsACheckpointDirectory() throws LaunchException {
        assertEquals(CheckpointPlan.RESUME_AUTO,
                parse("-np", "2", "--checkpoint-dir", "d", "--", "Main").checkpoint().resume());
        assertEquals(CheckpointPlan.RESUME_NEVER,
                parse("-np", "2", "--checkpoint-dir", "d", "--resume", "never", "--", "Main").checkpoint().resume());
        LaunchException noDir = assertThrows(LaunchException.class,
                () -> parse("-np", "2", "--resume", "force", "--", "Main"));
        assertEquals(LaunchException.USAGE, noDir.exitCode());
        assertTrue(noDir.getMessage().contains("--resume needs --checkpoint-dir"), noDir.getMessage());
        LaunchException bad = assertThrows(LaunchException.class,
                () -> parse("-np", "2", "--checkpoint-dir", "d", "--resume", "always", "--", "Main"));
        assertTrue(bad.getMessage().contains("--resume knows auto, never and force, not \"always\""),
                bad.getMessage());
    }
}

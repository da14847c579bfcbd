package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MpirunCommandTest {

    private static final LaunchHost ROOT_TWO_CORES =
            new LaunchHost(Path.of("/usr/bin/mpirun"), Path.of("/jdk/bin/java"), Path.of("/fthp/fthp-mpi.jar"), true, 2);
    private static final LaunchHost USER_EIGHT_CORES =
            new LaunchHost(Path.of("/usr/bin/mpirun"), Path.of("/jdk/bin/java"), Path.of("/fthp/fthp-mpi.jar"), false, 8);

    private static List<String> build(LaunchHost host, String... args) throws LaunchException {
        LaunchOptions options = new LaunchOptionsParser().parse(List.of(args));
        UserProgram program = new UserProgramResolver(java.util.Optional.empty()).resolve(options);
        return MpirunCommand.build(options, program, host);
    }

    @Test
    void buildsTheFullCommandAsRootWhenOversubscribed() throws LaunchException {
        List<String> command = build(ROOT_TWO_CORES,
                "-np", "4", "--mca", "btl", "self,vader", "--", "-Xmx256m", "-cp", "app.jar", "org.example.Main", "in.dat");
        assertEquals(List.of(
                "/usr/bin/mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                "-np", "4", "-x", "FTHP_EMPI_ABI", "-x", "FTHP_LOGICAL_SIZE", "-x", "FTHP_REPLICAS",
                "-x", "FTHP_SHOW_REPLICA_OUTPUT", "-x", "FTHP_STATS_DIR", "--mca", "btl", "self,vader",
                "/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=CompileThresholdScaling,jdk.internal.classfile.*::*,10.0",
                MpirunCommand.GENERAL_PATH_APART.get(0), MpirunCommand.GENERAL_PATH_APART.get(1),
                MpirunCommand.SHALLOW_ENTRIES_FOREGROUND.get(0), MpirunCommand.SHALLOW_ENTRIES_FOREGROUND.get(1),
                MpirunCommand.SHALLOW_ENTRIES_EARLY.get(0), MpirunCommand.SHALLOW_ENTRIES_EARLY.get(1),
                "-cp", "/fthp/fthp-mpi.jar:app.jar", "-Xmx256m", "org.example.Main", "in.dat"), command);
    }

    @Test
    void sparesFollowTheProgramsProcessesAndReachTheRanks() throws LaunchException {
        List<String> command = build(USER_EIGHT_CORES, "-np", "4", "--replicas", "2", "--spares", "1", "--", "Main");
        assertEquals("7", command.get(command.indexOf("-np") + 1));
        assertEquals("FTHP_SPARES", command.get(command.indexOf("FTHP_SPARES")));
        assertEquals(-1, build(USER_EIGHT_CORES, "-np", "4", "--", "Main").indexOf("FTHP_SPARES"));
    }

    @Test
    void replicasAddNativeProcesses() throws LaunchException {
        List<String> command = build(USER_EIGHT_CORES, "-np", "6", "--replicas", "3", "--", "Main");
        assertEquals("9", command.get(command.indexOf("-np") + 1));
        assertTrue(command.contains("--oversubscribe"), "9 processes on 8 cores");
        assertEquals("-x", command.get(command.indexOf(RankOutputRelay.DIR_ENV) - 1),
                "replicated ranks are told where their output files are");
    }

    private static final LaunchHost WITH_AOT_CACHE = new LaunchHost(Path.of("/usr/bin/mpirun"), Path.of("/jdk/bin/java"),
            Path.of("/fthp/fthp-mpi.jar"), false, 8, NativeMpi.OPEN_MPI, java.util.Optional.of(Path.of("/fthp/fthp-mpi.aot")));

    @Test
    void theAotCacheFollowsTheClassPathQuietly() throws LaunchException {
        List<String> command = build(WITH_AOT_CACHE, "-np", "2", "--", "-Dx=1", "-cp", "app.jar", "Main");
        int cp = command.indexOf("-cp");
        // Open MPI's mpirun rewrites the word after the first one holding "cp": the class path, not a cache option
        assertEquals(List.of("-cp", "/fthp/fthp-mpi.jar:app.jar", "-XX:AOTCache=/fthp/fthp-mpi.aot", "-Xlog:aot=off",
                "-Dx=1", "Main"), command.subList(cp, command.size()));
    }

    @Test
    void noAotCacheWithoutOneOrWhenTheUserPicksAnArchive() throws LaunchException {
        assertTrue(build(USER_EIGHT_CORES, "-np", "2", "--", "Main").stream().noneMatch(w -> w.startsWith("-XX:AOT")));
        for (String own : List.of("-XX:AOTCache=mine.aot", "-XX:AOTMode=record", "-XX:AOTCacheOutput=x.aot",
                "-Xshare:off", "-XX:SharedArchiveFile=app.jsa")) {
            List<String> command = build(WITH_AOT_CACHE, "-np", "2", "--", own, "Main");
            assertEquals(List.of(own), command.stream().filter(w -> w.startsWith("-XX:AOT") || w.startsWith("-Xshare")
                    || w.startsWith("-XX:Shared") || w.startsWith("-Xlog")).toList(), own);
        }
    }

    @Test
    void theRuntimeJarAsTheUserClassPathIsNamedOnce() throws LaunchException {
        List<String> command = build(USER_EIGHT_CORES, "-np", "1", "--", "-cp", "/fthp/fthp-mpi.jar", "Main");
        assertEquals("/fthp/fthp-mpi.jar", command.get(command.indexOf("-cp") + 1));
    }

    @Test
    void noRootOrOversubscribeFlagsWhenNotNeeded() throws LaunchException {
        List<String> command = build(USER_EIGHT_CORES, "-np", "8", "--", "Main");
        assertFalse(command.contains("--allow-run-as-root"));
        assertFalse(command.contains("--oversubscribe"));
    }

    @Test
    void runtimeJarComesBeforeTheUserClassPath() throws LaunchException {
        List<String> command = build(USER_EIGHT_CORES, "-np", "1", "--", "-cp", "lib/mpi.jar:app.jar", "Main");
        String classpath = command.get(command.indexOf("-cp") + 1);
        assertEquals("/fthp/fthp-mpi.jar:lib/mpi.jar:app.jar", classpath);
        assertEquals(1, command.stream().filter(w -> w.equals("-cp")).count());
    }

    @Test
    void defaultUserClassPathIsTheCurrentDirectory() throws LaunchException {
        List<String> command = build(USER_EIGHT_CORES, "-np", "1", "--", "Main");
        assertEquals("/fthp/fthp-mpi.jar:.", command.get(command.indexOf("-cp") + 1));
    }

    @Test
    void userChosenFlagsAreNotDuplicated() throws LaunchException {
        List<String> command = build(ROOT_TWO_CORES,
                "-np", "4", "--oversubscribe", "--allow-run-as-root", "--bind-to", "core", "--", "-XX:+UseG1GC", "Main");
        assertEquals(1, command.stream().filter(w -> w.equals("--oversubscribe")).count());
        assertEquals(1, command.stream().filter(w -> w.equals("--allow-run-as-root")).count());
        assertEquals(1, command.stream().filter(w -> w.equals("--bind-to")).count());
        assertFalse(command.contains("-XX:+UseSerialGC"));
        assertTrue(command.contains("-XX:+UseG1GC"));
    }

    @Test
    void userJavaOptionsFollowOursSoTheyCanOverride() throws LaunchException {
        List<String> command = build(USER_EIGHT_CORES, "-np", "1", "--", "-Dx=1", "Main");
        assertTrue(command.indexOf("-Dx=1") > command.indexOf("--enable-native-access=ALL-UNNAMED"));
        assertTrue(command.indexOf("-Dx=1") < command.indexOf("Main"));
    }

    @Test
    void displayQuotesWordsTheShellWouldSplit() {
        assertEquals("java -cp a:b Main 'two words' 'it'\\''s'",
                MpirunCommand.display(List.of("java", "-cp", "a:b", "Main", "two words", "it's")));
    }

    @Test
    void coordinatorVariablesTravelByNameOnly() throws LaunchException {
        List<String> cmd = build(ROOT_TWO_CORES, "-np", "2", "--nodes", "2", "--", "-cp", "a.jar", "Main");
        String line = String.join(" ", cmd);
        assertTrue(line.contains("-x FTHP_JOB_SECRET"), line);
        assertTrue(line.contains("-x FTHP_COORDINATORS"), line);
        assertFalse(line.contains("FTHP_JOB_SECRET="), "never a secret on a command line: " + line);
    }

    @Test
    void restartsRelayEveryRanksOutputAndPassTheCheckpointVariables() throws LaunchException {
        String line = String.join(" ", build(ROOT_TWO_CORES, "-np", "2", "--restart", "2", "--checkpoint-dir", "/tmp/c",
                "--", "-cp", "a.jar", "Main"));
        for (String name : List.of("FTHP_CHECKPOINT_ENABLED", "FTHP_CHECKPOINT_RESTART", "FTHP_CHECKPOINT_EPOCH",
                "FTHP_CHECKPOINT_DIR", "FTHP_OUTPUT_DIR")) {
            assertTrue(line.contains("-x " + name), name + " in " + line);
        }
        String plain = String.join(" ", build(ROOT_TWO_CORES, "-np", "2", "--", "-cp", "a.jar", "Main"));
        assertFalse(plain.contains("FTHP_CHECKPOINT"), plain);
        assertFalse(plain.contains("FTHP_OUTPUT_DIR"), "unreplicated ranks without restarts print through mpirun");
    }
}

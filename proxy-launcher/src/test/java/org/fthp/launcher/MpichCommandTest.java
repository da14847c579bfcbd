package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command line for MPICH's hydra: its own option names, none of Open MPI's. */
class MpichCommandTest {

    private static final LaunchHost ROOT_TWO_CORES = new LaunchHost(Path.of("/usr/bin/mpiexec.hydra"),
            Path.of("/jdk/bin/java"), Path.of("/fthp/fthp-mpi.jar"), true, 2, NativeMpi.MPICH);

    private static LaunchOptions options(String... args) throws LaunchException {
        return new LaunchOptionsParser().parse(List.of(args));
    }

    private static List<String> build(String... args) throws LaunchException {
        LaunchOptions options = options(args);
        UserProgram program = new UserProgramResolver(java.util.Optional.empty()).resolve(options);
        return MpirunCommand.build(options, program, ROOT_TWO_CORES);
    }

    @Test
    void buildsHydrasCommandEvenAsRootAndOversubscribed() throws LaunchException {
        List<String> command = build("-np", "4", "-ppn", "4", "--", "-Xmx256m", "-cp", "app.jar", "org.example.Main",
                "in.dat");
        assertEquals(List.of(
                "/usr/bin/mpiexec.hydra", "-bind-to", "none", "-n", "4",
                "-genvlist",
                "FTHP_EMPI_ABI,FTHP_LOGICAL_SIZE,FTHP_REPLICAS,FTHP_SHOW_REPLICA_OUTPUT,FTHP_STATS_DIR,UCX_LOG_LEVEL",
                "-ppn", "4",
                "/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=CompileThresholdScaling,jdk.internal.classfile.*::*,10.0",
                MpirunCommand.GENERAL_PATH_APART.get(0), MpirunCommand.GENERAL_PATH_APART.get(1),
                MpirunCommand.SHALLOW_ENTRIES_FOREGROUND.get(0), MpirunCommand.SHALLOW_ENTRIES_FOREGROUND.get(1),
                MpirunCommand.SHALLOW_ENTRIES_EARLY.get(0), MpirunCommand.SHALLOW_ENTRIES_EARLY.get(1),
                "-cp", "/fthp/fthp-mpi.jar:app.jar", "-Xmx256m", "org.example.Main", "in.dat"), command);
    }

    @Test
    void noOpenMpiOptionEvenWithCoordinatorsReplicasAndALogLimit() throws LaunchException {
        List<String> command = build("-np", "2", "--replicas", "2", "--nodes", "2", "--log-limit", "1M",
                "--", "-cp", "a.jar", "Main");
        for (String openMpiOnly : List.of("--allow-run-as-root", "--oversubscribe", "--mca", "-x", "-np")) {
            assertFalse(command.contains(openMpiOnly), openMpiOnly + " in " + command);
        }
        String list = command.get(command.indexOf("-genvlist") + 1);
        for (String name : List.of("FTHP_JOB_SECRET", "FTHP_COORDINATORS", "FTHP_OUTPUT_DIR", "UCX_LOG_LEVEL")) {
            assertTrue(list.contains(name), name + " in " + list);
        }
        int genv = command.indexOf("-genv");
        assertEquals(List.of("-genv", "FTHP_LOG_LIMIT", "1048576"), command.subList(genv, genv + 3),
                "--log-limit's -x NAME=VALUE becomes hydra's -genv NAME VALUE");
        assertEquals("4", command.get(command.indexOf("-n") + 1));
    }

    @Test
    void theUsersBindingWins() throws LaunchException {
        List<String> command = build("-np", "2", "-bind-to", "core", "--", "Main");
        assertEquals(1, command.stream().filter(w -> w.equals("-bind-to")).count());
        assertEquals("core", command.get(command.indexOf("-bind-to") + 1));
    }

    @Test
    void ranksGetQuietUcxUnlessTheUserSaysOtherwise() throws LaunchException {
        assertEquals(Map.of("UCX_LOG_LEVEL", "error"),
                NativeMpi.MPICH.rankEnvironment(options("-np", "2", "--replicas", "1", "--", "Main"), Map.of()));
        assertEquals(Map.of(), NativeMpi.MPICH.rankEnvironment(options("-np", "2", "--replicas", "1", "--", "Main"),
                Map.of("UCX_LOG_LEVEL", "warn")));
        assertEquals(Map.of("UCX_LOG_LEVEL", "error"),
                NativeMpi.MPICH.rankEnvironment(options("-np", "2", "--", "Main"), Map.of()));
        assertEquals(Map.of(), NativeMpi.OPEN_MPI.rankEnvironment(options("-np", "2", "--replicas", "1", "--",
                "Main"), Map.of()));
    }

    /**
     * Several hosts on MPICH: the user's hosts and launcher give way to fthp-run's placement as an ordered host list
     * (every replica on the other host than its twin) and its launcher script, which runs the user's agent.
     */
    @Test
    void severalHostsBecomeAnOrderedHostListAndFthpRunsLauncher() throws LaunchException {
        LaunchOptions asked = options("-np", "2", "--replicas", "2", "--host", "localhost:2,127.0.0.2:2",
                "-launcher-exec", "/cluster/agent -q", "--", "-cp", "app.jar", "org.example.Main");
        Path home = Path.of("/fthp");
        MultiHostLaunch hosts = MultiHostLaunch.plan(asked, Map.of(), home, NativeMpi.MPICH);
        assertEquals(List.of(
                "-hosts", "localhost:2,127.0.0.2:2",
                "-launcher", "rsh", "-launcher-exec", "/fthp/scripts/mpich-hydra-rsh.sh",
                "-x", MultiHostLaunch.NODE_OF_ENV, "-x", RankOutputSink.ADDRESS_ENV),
                hosts.launcherArgs(asked.mpirunArgs(), Path.of("/unused"), "/tmp/job"));
        assertEquals("0,0,1,1", hosts.placement().coordinatorOf());
        assertEquals(Map.of("FTHP_HYDRA_AGENT", "/cluster/agent -q", "FTHP_PROXY_REPORT_DIR", "/tmp/job",
                LostHostsFile.ENV, "/tmp/job/hosts-lost"), hosts.launcherEnvironment("/tmp/job"));
        // no agent named: hydra's own variable, else ssh
        assertEquals(List.of("rsh-like", "-x"),
                RemoteAgent.ofHydra(List.of(), Map.of(RemoteAgent.HYDRA_ENV, "rsh-like -x")).words());
        assertEquals(List.of("ssh"), RemoteAgent.ofHydra(List.of("-ppn", "2"), Map.of()).words());
    }

    /**
     * A host the coordinators lost (their line names its node, host k) has its addresses listed in the file the
     * library in mpiexec.hydra reads, next to those of hosts lost before; a line naming no known node lists nothing.
     */
    @Test
    void aLostHostsAddressesAreListedForMpiexecsLibrary(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        LaunchOptions asked = options("-np", "2", "--replicas", "2", "--host", "localhost:2,127.0.0.2:2,127.0.0.3:2",
                "--", "-cp", "app.jar", "org.example.Main");
        MultiHostLaunch hosts = MultiHostLaunch.plan(asked, Map.of(), Path.of("/fthp"), NativeMpi.MPICH);
        LostHostsFile file = LostHostsFile.in(dir);
        assertEquals(List.of(), file.listed(), "nothing before a loss");
        hosts.hostLost("node=7 processes=1 native=3", dir.toString());
        hosts.hostLost("processes=1", dir.toString());
        assertEquals(List.of(), file.listed());
        hosts.hostLost("node=2 processes=1 native=2", dir.toString());
        assertEquals(List.of("127.0.0.3"), file.listed());
        hosts.hostLost("node=1 processes=2 native=1,3", dir.toString());
        hosts.hostLost("node=1 processes=2 native=1,3", dir.toString());   // told twice: listed once
        assertEquals(List.of("127.0.0.3", "127.0.0.2"), file.listed());
        assertFalse(java.nio.file.Files.exists(dir.resolve("hosts-lost.partial")), "no partial file left");
        // Open MPI's mpirun needs no such file
        MultiHostLaunch openMpi = MultiHostLaunch.plan(asked, Map.of(), Path.of("/fthp"), NativeMpi.OPEN_MPI);
        Path other = dir.resolve("openmpi");
        java.nio.file.Files.createDirectories(other);
        openMpi.hostLost("node=1 processes=2 native=1,3", other.toString());
        assertEquals(List.of(), LostHostsFile.in(other).listed());
        assertEquals(Map.of(), openMpi.launcherEnvironment(other.toString()));
    }
}

package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.fthp.it.hosts.EmulatedHosts;
import org.fthp.it.programs.RestartIterations;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --restart} on several hosts, on three emulated hosts: an unreplicated job on h0 and
 * h1, h2 held in reserve; h1 crashes (every process on it SIGKILLed) and takes rank 1's only copy; fthp-run
 * relaunches on the live hosts h0 and h2, from the newest epoch in the (shared) checkpoint directory, and the job
 * ends with the failure-free output. The same crash with no host left in reserve for a replicated job: exit 4,
 * saying why.
 */
@Tag("outside-ci")
class HostRestartTest {

    private static final Duration JOB = Duration.ofSeconds(150);
    private static EmulatedHosts hosts;
    private static Path dir;

    @BeforeAll
    static void setUp() throws Exception {
        hosts = EmulatedHostsTest.create(3);
        // not under /tmp: each host has its own; the build directory is shared, as a cluster's home is
        dir = Files.createDirectories(Path.of("target", "host-restart-" + hosts.id()).toAbsolutePath());
    }

    @AfterAll
    static void tearDown() {
        if (hosts != null) {
            hosts.close();
        }
    }

    private static List<String> fthpRun(List<String> options, String... args) {
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(), "-np", "2"));
        cmd.addAll(options);
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"), RestartIterations.class.getName()));
        cmd.addAll(List.of(args));
        return hosts.onHost(0, cmd);
    }

    @Test
    void aHostLostWithARanksOnlyCopyIsRelaunchedOnTheLiveHostsWithTheSpare() throws Exception {
        String expected = MpiJob.run(2, JOB, RestartIterations.class, "40", "0").assertSuccess().stdout();
        Path ckpt = dir.resolve("spare");
        List<String> cmd = fthpRun(List.of("--verbose", "--checkpoint-dir", ckpt.toString(),
                "--checkpoint-interval", "600", "--restart", "1", "--host", hosts.hostList(1)),
                "40", "150", "--force", "5");
        MpiJob.Result r = BackgroundJob.runFailing(cmd, "iteration 22 ", () -> hosts.crash(1), JOB);
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stderr().contains("rank 1: cmp 1 @ h1"), r.stderr());
        assertTrue(r.stderr().contains("restart 1 of 1: rank 1 lost every copy (hosts lost: h1); relaunching 2"
                + " processes (2 ranks, 0 replicas) on h0:1,h2:1 from checkpoint epoch"), r.stderr());
        assertEquals(expected, r.stdout(), "stdout differs from the failure-free run\n" + r.stderr());
    }

    @Test
    void tooFewHostsLeftForAReplicatedRelaunchEndWithExit4SayingWhy() throws Exception {
        Path ckpt = dir.resolve("few");
        // ranks 0 and 1 on h0 and h1, their replicas on h1 and h2; h1 crashes: rank 1's replica on h2 takes over,
        // then h2 crashes: rank 1 is lost, and h0 alone cannot hold replicas on other hosts than their twins
        List<String> cmd = fthpRun(List.of("--replicas", "2", "--checkpoint-dir", ckpt.toString(),
                "--checkpoint-interval", "600", "--restart", "1", "--host", "h0:1,h1:1,h2:2"),
                "40", "150", "--force", "5");
        MpiJob.Result r = BackgroundJob.runFailing(cmd, "iteration 22 ", () -> {
            hosts.crash(1);
            hosts.crash(2);
        }, JOB);
        assertEquals(4, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stderr().contains("cannot relaunch: too few hosts left (1 live"), r.stderr());
    }
}

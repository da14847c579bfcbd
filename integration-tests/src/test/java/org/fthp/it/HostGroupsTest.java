package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fthp.it.hosts.EmulatedHosts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Four emulated hosts, so that the coordinators form groups (⌈√4⌉ = 2: node 0 leads node 1, node 2 leads node 3,
 * and the leaders report to the primary, node 0). Losing a group leader's host must not take its members' processes
 * with it: they are alive on their own hosts.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HostGroupsTest {

    private static final Duration JOB = Duration.ofSeconds(180);
    private static final String[] WORKLOAD = {"300", "5000"};

    private static EmulatedHosts hosts;
    private static Path dir;

    @BeforeAll
    static void setUp() throws Exception {
        hosts = EmulatedHostsTest.create(4);
        // not under /tmp: each host has its own; the build directory is shared, as a cluster's home is
        dir = Files.createDirectories(Path.of("target", "hosts-" + hosts.id()).toAbsolutePath());
    }

    @AfterAll
    static void tearDown() {
        if (hosts != null) {
            hosts.close();
        }
    }

    /**
     * N=M=2 on one slot per host: rank 0 computes on h0 with its replica on h2, rank 1 computes on h1 with its
     * replica on h3. h2 (node 2, node 3's group leader) is crashed while the job runs: the primary fails h2's one
     * process (one epoch, host-lost), h3's coordinator registers with the primary directly, and h3's process (rank
     * 1's replica) is never failed. Exit 0, the failure-free output, nothing left on h0.
     */
    @Test
    void losingAGroupLeadersHostLeavesItsMembersProcessesRunning() throws Exception {
        List<String> expected = FailureFreeRuns.linesWithoutBusyTime(org.fthp.it.programs.RepairP2p.class, 2, JOB,
                WORKLOAD);
        Path events = dir.resolve("leader-lost-events.jsonl");
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "2", "--replicas", "2", "--verbose", "--events", events.toString(),
                "--host", hosts.hostList(1)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.RepairP2p.class.getName()));
        cmd.addAll(List.of(WORKLOAD));
        MpiJob.Result r = runFailingHost(cmd, "RepairP2p iteration 40 ", () -> hosts.crash(2));
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertEquals(expected, r.lines(), "stdout differs from the failure-free run\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stderr().contains("rank 0: cmp 0 @ h0, rep 2 @ h2"), r.stderr());
        assertTrue(r.stderr().contains("rank 1: cmp 1 @ h1, rep 3 @ h3"), r.stderr());
        assertTrue(r.stderr().contains("lost a host (node=2 processes=1 native=2)"), r.stderr());
        assertTrue(r.stderr().contains("coordinator node 3: lost its group leader, node 2"), r.stderr());
        List<String> detected = Files.readAllLines(events).stream()
                .filter(l -> l.contains("failure-detected")).toList();
        assertEquals(1, detected.size(), "h3's process must not fail with its leader:\n" + String.join("\n", detected));
        assertTrue(detected.get(0).contains("\"nativeRank\":2,") && detected.get(0).contains("\"host-lost\""),
                detected.get(0));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!hosts.pidsOn(0).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), hosts.pidsOn(0), "processes left on h0");
    }

    /** fthp-run on h0; {@code failure} once its stdout holds {@code trigger}; the job killed if it outlives JOB. */
    private static MpiJob.Result runFailingHost(List<String> fthpRun, String trigger, Runnable failure)
            throws Exception {
        return BackgroundJob.runFailing(hosts.onHost(0, fthpRun), trigger, failure, JOB);
    }
}

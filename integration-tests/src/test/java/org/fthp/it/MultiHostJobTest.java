package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.it.hosts.EmulatedHosts;
import org.fthp.it.programs.HostReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real jobs across two emulated hosts (network namespaces, TCP between them),
 * mpirun running on h0 and reaching h1 through the remote agent: a plain C
 * job, the unreplicated facade through fthp-run, and a rank killed on h1
 * hidden from h1's orted by the proxy library preloaded through the launch
 * agent scripts/fthp-orted.sh.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MultiHostJobTest {

    private static final Duration JOB = Duration.ofSeconds(120);
    private static final Pattern RANK_LINE = Pattern.compile("(?m)^rank (\\d+) of (\\d+) on (\\S+) pid (\\d+)$");

    private static EmulatedHosts hosts;
    private static Path dir;
    private static Path hostring;

    @BeforeAll
    static void setUp() throws Exception {
        hosts = EmulatedHostsTest.create(2);
        // not under /tmp: each host has its own; the build directory is shared, as a cluster's home is
        dir = Files.createDirectories(Path.of("target", "hosts-" + hosts.id()).toAbsolutePath());
        Path source = dir.resolve("hostring.c");
        try (InputStream in = MultiHostJobTest.class.getResourceAsStream("hosts/hostring.c")) {
            Files.copy(in, source);
        }
        hostring = dir.resolve("hostring");
        MpiJob.Result r = MpiJob.exec(List.of("mpicc", "-O2", "-o", hostring.toString(), source.toString()),
                Duration.ofSeconds(60), Map.of());
        assertEquals(0, r.exitCode(), r.stderr());
    }

    @AfterAll
    static void tearDown() {
        if (hosts != null) {
            hosts.close();
        }
    }

    /** mpirun on h0 with 2 ranks on each host, the given extra options, the C program and its arguments. */
    private static List<String> mpirun(List<String> env, List<String> options, String... programArgs) {
        return mpirun(hosts.hostList(2), env, options, programArgs);
    }

    /** As above on the given {@code --host} list (4 slots in all). */
    private static List<String> mpirun(String hostList, List<String> env, List<String> options,
                                       String... programArgs) {
        List<String> cmd = new ArrayList<>(env.isEmpty() ? List.of() : List.of("env"));
        cmd.addAll(env);
        cmd.addAll(List.of("mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                "--host", hostList, "-np", "4"));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(options);
        cmd.add(hostring.toString());
        cmd.addAll(List.of(programArgs));
        return hosts.onHost(0, cmd);
    }

    /** Host of each rank, and pid, from the program's "rank r of n on HOST pid P" lines. */
    private static Map<Integer, String[]> placement(String stdout) {
        Map<Integer, String[]> byRank = new java.util.TreeMap<>();
        Matcher m = RANK_LINE.matcher(stdout);
        while (m.find()) {
            byRank.put(Integer.parseInt(m.group(1)), new String[] {m.group(3), m.group(4)});
        }
        return byRank;
    }

    @Test
    void nativeJobRunsOverTcpBetweenHosts() {
        MpiJob.Result r = MpiJob.exec(mpirun(List.of(), List.of("--mca", "btl", "tcp,self,vader")), JOB, Map.of());
        r.assertSuccess();
        Map<Integer, String[]> at = placement(r.stdout());
        assertEquals(List.of("h0", "h0", "h1", "h1"),
                at.values().stream().map(a -> a[0]).toList(), "ranks by host:\n" + r.stdout());
        assertTrue(r.stdout().contains("ring token 4 over 4 ranks, sum of world ranks 6"), r.stdout());
    }

    @Test
    void sharedMemoryDoesNotReachTheOtherHost() {
        // without TCP, ranks on h0 and h1 have no transport in common: the hosts are apart
        MpiJob.Result r = MpiJob.exec(mpirun(List.of(), List.of("--mca", "btl", "self,vader")), JOB, Map.of());
        assertNotEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertTrue((r.stdout() + r.stderr()).contains("unable to reach each other"), r.stdout() + r.stderr());
        r.assertNoLeftovers();
    }

    @Test
    void facadeJobRunsAcrossHostsThroughFthpRun() {
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "4", "--host", hosts.hostList(2)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"), HostReport.class.getName()));
        MpiJob.Result r = MpiJob.exec(hosts.onHost(0, cmd), JOB, Map.of()).assertSuccess();
        List<String> lines = r.lines();
        assertTrue(lines.contains("host h0 ranks 0,1"), r.stdout());
        assertTrue(lines.contains("host h1 ranks 2,3"), r.stdout());
        assertTrue(lines.contains("HostReport OK np=4"), r.stdout());
    }

    /**
     * Large messages between ranks on different hosts: each receiver is told where the payload waits in its
     * sender's shared memory, cannot read it from the other host, and asks for it; the native library then
     * carries it over TCP. Ranks are placed round-robin, so P2pLarge's pairs (0,1) and (2,3) straddle the hosts.
     */
    @Test
    void largePayloadsBetweenHostsArePushedOverTheNetwork() {
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "4", "--host", hosts.hostList(2), "--map-by", "node"));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"), org.fthp.it.programs.P2pLarge.class.getName()));
        MpiJob.Result r = MpiJob.exec(hosts.onHost(0, cmd), JOB, Map.of()).assertSuccess();
        assertTrue(r.stdout().contains("P2pLarge OK np=4"), r.stdout() + r.stderr());
        Matcher m = P2pTest.OFFERED.matcher(r.stderr());
        assertTrue(m.find(), "no count of offered payloads in the summary:\n" + r.stderr());
        assertEquals(0, Long.parseLong(m.group(1)), "nothing is read across hosts: " + m.group());
        assertTrue(Long.parseLong(m.group(2)) > 0, m.group());
    }

    @Test
    void aRankKilledOnTheRemoteHostIsHiddenFromItsOrtedAndReportedThere() throws Exception {
        String reports = reportDirOnEveryHost("reports");
        Path library = MpiJob.home().resolve("proxy-launcher/target/libfthp_proxy.so");
        // mpirun (on h0) gets the library as fthp-run gives it; every remote orted gets it from the launch agent
        List<String> env = List.of("LD_PRELOAD=" + library, "FTHP_PROXY_REPORT=" + reports + "/proxy-report.h0");
        List<String> options = List.of("--mca", "orte_allowed_exit_without_sync", "1",
                "--mca", "orte_launch_agent", MpiJob.home().resolve("scripts/fthp-orted.sh").toString(),
                "--mca", "fthp_proxy_report_dir", reports);
        MpiJob.Result r = MpiJob.exec(mpirun(env, options, "3"), JOB, Map.of());
        assertEquals(0, r.exitCode(), "the job must go on without rank 3:\n" + r.stdout() + r.stderr());
        r.assertNoLeftovers();
        Map<Integer, String[]> at = placement(r.stdout());
        assertEquals("h1", at.get(3)[0], r.stdout());
        assertTrue(r.stdout().contains("ring token 3 over 3 ranks, sum of world ranks 3"), r.stdout());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(r.lines().contains("rank " + rank + " finalizing"), r.stdout());
        }
        assertFalse(r.lines().contains("rank 3 finalizing"), r.stdout());
        Path h1 = hosts.tmpOf(1).resolve("reports/proxy-report.h1");
        assertTrue(Files.exists(h1), "h1's orted reported the death, on h1");
        assertEquals(List.of(at.get(3)[1]), Files.readAllLines(h1), "the pid of rank 3, once");
        assertFalse(Files.exists(hosts.tmpOf(0).resolve("reports/proxy-report.h0")), "no death on h0");
    }

    /**
     * The only rank of h1 dies. MPI_Finalize's job-wide PMIx fence then never completes (seen: the
     * survivors wait in it for ever): a daemon joins a fence when one of its own ranks enters it, and h1
     * has none left. {@code async_mpi_finalize} leaves that fence out; fthp-run's Finalize has its own
     * agreement among the live processes, so it loses nothing.
     */
    @Test
    void aHostThatLosesItsOnlyRankNeedsFinalizeWithoutTheFence() throws Exception {
        String reports = reportDirOnEveryHost("reports-only-rank");
        Path library = MpiJob.home().resolve("proxy-launcher/target/libfthp_proxy.so");
        List<String> env = List.of("LD_PRELOAD=" + library, "FTHP_PROXY_REPORT=" + reports + "/proxy-report.h0");
        List<String> options = List.of("--mca", "orte_allowed_exit_without_sync", "1",
                "--mca", "async_mpi_finalize", "1",
                "--mca", "orte_launch_agent", MpiJob.home().resolve("scripts/fthp-orted.sh").toString(),
                "--mca", "fthp_proxy_report_dir", reports);
        MpiJob.Result r = MpiJob.exec(mpirun("h0:3,h1:1", env, options, "3"), JOB, Map.of());
        assertEquals(0, r.exitCode(), "the job must go on without h1's only rank:\n" + r.stdout() + r.stderr());
        r.assertNoLeftovers();
        Map<Integer, String[]> at = placement(r.stdout());
        assertEquals("h1", at.get(3)[0], r.stdout());
        assertTrue(r.stdout().contains("ring token 3 over 3 ranks, sum of world ranks 3"), r.stdout());
        assertEquals(List.of(at.get(3)[1]),
                Files.readAllLines(hosts.tmpOf(1).resolve("reports-only-rank/proxy-report.h1")));
    }

    @Test
    void withoutTheLaunchAgentTheRemoteDeathEndsTheJob() throws Exception {
        String reports = reportDirOnEveryHost("reports-control");
        Path library = MpiJob.home().resolve("proxy-launcher/target/libfthp_proxy.so");
        List<String> env = List.of("LD_PRELOAD=" + library, "FTHP_PROXY_REPORT=" + reports + "/proxy-report.h0");
        MpiJob.Result r = MpiJob.exec(mpirun(env, List.of("--mca", "orte_allowed_exit_without_sync", "1"), "3"),
                JOB, Map.of());
        assertNotEquals(0, r.exitCode(), "h1's plain orted tells mpirun, which aborts:\n" + r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("rank 3 of 4 on h1"), r.stdout());
        assertTrue(r.stderr().contains("on node h1 exited on signal 9"), r.stderr());
        r.assertNoLeftovers();
        // (mpirun's own library may report h0's ranks: the abort kills them with a signal)
        assertFalse(Files.exists(hosts.tmpOf(1).resolve("reports-control/proxy-report.h1")),
                "nothing on h1 reports without the agent");
    }

    /**
     * A replicated job on both hosts, each replica on the other host than its twin (fthp-run's placement):
     * rank 0's computational copy dies on h0 (its replica on h1 takes over, output included, through
     * fthp-run's output sink), then rank 1's replica dies on h1 (hidden from h1's orted, reported to h1's
     * coordinator). The job ends 0 with the output of a failure-free run, each line once and in order.
     */
    @Test
    void aReplicatedJobSurvivesKillsOnEitherHostWithTheFailureFreeOutput() throws Exception {
        String[] workload = {"200", "1000"};
        List<String> expected = FailureFreeRuns.linesWithoutBusyTime(org.fthp.it.programs.RepairP2p.class, 2, JOB,
                workload);
        Path events = dir.resolve("replicated-events.jsonl");
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "2", "--replicas", "2", "--verbose", "--events", events.toString(),
                "--kill", "0:cmp#300", "--kill", "1:rep#500", "--host", hosts.hostList(2)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.RepairP2p.class.getName()));
        cmd.addAll(List.of(workload));
        MpiJob.Result r = MpiJob.exec(hosts.onHost(0, cmd), JOB, Map.of());
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertEquals(expected, r.lines(), "stdout differs from the failure-free run\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stderr().contains("rank 0: cmp 0 @ h0, rep 2 @ h1"), r.stderr());
        assertTrue(r.stderr().contains("rank 1: cmp 1 @ h0, rep 3 @ h1"), r.stderr());
        // both survivors, rank 1's on h0 and rank 0's replica on h1 (h1's figures come through its coordinator)
        assertTrue(r.stderr().contains("2 of 4 processes reported"), r.stderr());
        List<String> detected = Files.readAllLines(events).stream()
                .filter(l -> l.contains("failure-detected")).toList();
        assertEquals(2, detected.size(), String.join("\n", detected));
        assertTrue(detected.get(0).contains("\"nativeRank\":0,") && detected.get(0).contains("\"role\":\"CMP\""),
                detected.get(0));
        assertTrue(detected.get(1).contains("\"nativeRank\":3,") && detected.get(1).contains("\"role\":\"REP\""),
                detected.get(1));
    }

    /**
     * Native rank 1 (rank 1's computational copy, placed on h1) dies before MPI.Init: no coordinator has it
     * registered, h1's orted reports it to h1's coordinator only, and that one "not mine" (one vote per
     * host) is enough for the primary on h0 to end the job with exit code 4. Killed by a signal (hidden from
     * the orted, reported), or exiting with status 3 (passed on, and reported too: mpirun and the orteds run in
     * recovery mode on several hosts, which would ignore it and leave the others in MPI_Init for ever).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"signal", "exit"})
    void aProcessOnTheRemoteHostThatDiesBeforeRegisteringEndsTheJob(String how) {
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "2", "--replicas", "2", "--host", hosts.hostList(1)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.DieBeforeInit.class.getName(), how));
        MpiJob.Result r = MpiJob.exec(hosts.onHost(0, cmd), JOB, Map.of());
        assertEquals(4, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        Matcher pid = Pattern.compile("rank 1 pid (\\d+) dies before MPI.Init").matcher(r.stdout());
        assertTrue(pid.find(), r.stdout());
        assertTrue(r.stderr().contains("a process (pid " + pid.group(1) + ") died before it registered"), r.stderr());
        assertFalse(r.stdout().contains("NOT REACHED"), r.stdout());
    }

    /**
     * Every process of h1 is killed (its orted, its ranks, its coordinator, and the agent that reached it) while
     * the job runs, with one slot per host: rank 0 computes on h0 with its replica on h1, rank 1 computes on h1
     * with its replica on h0, so each rank keeps a copy. The primary loses h1's coordinator and fails both of h1's
     * processes at once (one epoch, cause host-lost), rank 1's replica takes over, mpirun (in recovery mode) does
     * not end the job on the lost orted, the proxy does not report the dead agent, and fthp-run ends mpirun once
     * every process has finished or failed: exit 0, the failure-free output, nothing left on h0.
     */
    @Test
    void aWholeHostKilledIsSurvivedWhenEveryRankHasACopyOnTheOther() throws Exception {
        String[] workload = LONGER_WORKLOAD;
        List<String> expected = longerWorkloadOutput();
        Path events = dir.resolve("host-lost-events.jsonl");
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "2", "--replicas", "2", "--verbose", "--events", events.toString(),
                "--host", hosts.hostList(1)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.RepairP2p.class.getName()));
        cmd.addAll(List.of(workload));
        MpiJob.Result r = runCrashingHost(cmd, "RepairP2p iteration 40 ", 1);
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertEquals(expected, r.lines(), "stdout differs from the failure-free run\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stderr().contains("rank 1: cmp 1 @ h1, rep 3 @ h0"), r.stderr());
        assertTrue(r.stderr().contains("lost a host (node=1 processes=2 native=1,2)"), r.stderr());
        List<String> detected = Files.readAllLines(events).stream()
                .filter(l -> l.contains("failure-detected")).toList();
        assertEquals(2, detected.size(), String.join("\n", detected));
        for (String line : detected) {
            assertTrue(line.contains("\"epoch\":1,") && line.contains("\"cause\":\"host-lost\""), line);
        }
        assertNothingLeftOn(0);
    }

    /**
     * h1 is cut off from the network (its switch port down: no connection closes, no process dies) while the job
     * runs, one slot per host as above. Only the missing heartbeats show it: the primary fails h1's two processes
     * as one batch (cause host-lost), exactly as for a closed connection, and rank 1's replica on h0 takes over;
     * h1's coordinator, which stops hearing the primary, ends h1's processes and its orted and exits, so nothing of
     * the job is left half-alive behind the cut. Exit 0, the failure-free output, nothing left on either host.
     */
    @Test
    void aHostCutOffIsFoundByHeartbeatsAndTheJobGoesOnWithTheFailureFreeOutput() throws Exception {
        List<String> expected = longerWorkloadOutput();
        Path events = dir.resolve("host-cut-events.jsonl");
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "2", "--replicas", "2", "--verbose", "--events", events.toString(),
                "--host", hosts.hostList(1)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.RepairP2p.class.getName()));
        cmd.addAll(List.of(LONGER_WORKLOAD));
        MpiJob.Result r;
        try {
            r = runFailingHost(cmd, "RepairP2p iteration 40 ", () -> hosts.disconnect(1));
            // h1 ends its part of the job by itself, behind the cut
            assertNothingLeftOn(1);
        } finally {
            hosts.reconnect(1);
        }
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertEquals(expected, r.lines(), "stdout differs from the failure-free run\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stderr().contains("rank 1: cmp 1 @ h1, rep 3 @ h0"), r.stderr());
        assertTrue(r.stderr().contains("no word from child coordinator node 1"), r.stderr());
        assertTrue(r.stderr().contains("lost a host (node=1 processes=2 native=1,2)"), r.stderr());
        List<String> detected = Files.readAllLines(events).stream()
                .filter(l -> l.contains("failure-detected")).toList();
        assertEquals(2, detected.size(), String.join("\n", detected));
        for (String line : detected) {
            assertTrue(line.contains("\"epoch\":1,") && line.contains("\"cause\":\"host-lost\""), line);
        }
        assertNothingLeftOn(0);
    }

    /**
     * h1 holds the only copy of ranks 2 and 3 (N=4, M=1 on h0:2,h1:4: ranks 2 and 3 and rank 0's replica are
     * on h1) and is killed while the job runs: the primary fails h1's processes at once and ends the job,
     * exit 4 naming both ranks, and nothing of the job is left running.
     */
    @Test
    void aWholeHostKilledWithTheOnlyCopyOfRanksEndsTheJobNamingThem() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "4", "--replicas", "1", "--verbose", "--host", "h0:2,h1:4"));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.RepairP2p.class.getName(), "300", "5000"));
        MpiJob.Result r = runCrashingHost(cmd, "RepairP2p iteration 40 ", 1);
        assertEquals(4, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stderr().contains("rank 2: cmp 2 @ h1") && r.stderr().contains("rank 3: cmp 3 @ h1"),
                r.stderr());
        assertTrue(r.stderr().contains("logical ranks 2, 3 lost all their copies"), r.stderr());
        assertNothingLeftOn(0);
    }

    /**
     * Spares across hosts: rank 0 on h0, rank 1 on h1, the spare on h0 (fthp-run places it away from rank 1). h1
     * crashes and takes rank 1's only copy; the spare takes rank 1, rank 0 rolls back in place to the last forced
     * checkpoint (kept in the shared checkpoint directory), and the job ends with the failure-free output, without a
     * relaunch.
     */
    @Test
    void aWholeHostLostIsRolledBackInPlaceWithTheSpareOnTheOtherHost() throws Exception {
        String[] workload = {"50", "60", "--force", "10"};
        List<String> expected = FailureFreeRuns.sortedLines(org.fthp.it.programs.ResilientIterations.class, 2,
                JOB, workload);
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "2", "--spares", "1", "--verbose", "--checkpoint-dir", dir.resolve("spare-ckpt").toString(),
                "--checkpoint-interval", "600", "--restart", "1", "--host", hosts.hostList(1)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.ResilientIterations.class.getName()));
        cmd.addAll(List.of(workload));
        MpiJob.Result r = runCrashingHost(cmd, "iteration 25 ", 1);
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stderr().contains("rank 1: cmp 1 @ h1") && r.stderr().contains("spare 2 @ h0"), r.stderr());
        assertTrue(r.stderr().contains("rank 1 lost every copy; spare 2 took its place and the job rolled back in"
                + " place to checkpoint epoch"), r.stderr());
        assertFalse(r.stderr().contains("restart 1 of 1"), r.stderr());
        assertEquals(expected, FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n" + r.stderr());
        assertNothingLeftOn(0);
    }

    /**
     * A timed kill (--kill R:cmp@T) of a process on h1: fthp-run counts the registrations its coordinators report
     * and asks h1's coordinator, which knows the pid on its host, to kill it. Exit 0, the failure-free output,
     * the injection and its detection in the event log with the same pid.
     */
    @Test
    void aTimedKillReachesTheRemoteHostThroughItsCoordinator() throws Exception {
        Path events = dir.resolve("timed-kill-events.jsonl");
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(),
                "-np", "2", "--replicas", "2", "--verbose", "--events", events.toString(),
                "--kill", "1:cmp@0.5", "--host", hosts.hostList(1)));
        cmd.addAll(hosts.mpirunOptions());
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("fthp.programs", "target/classes"),
                org.fthp.it.programs.RepairP2p.class.getName()));
        cmd.addAll(List.of(LONGER_WORKLOAD));
        MpiJob.Result r = MpiJob.exec(hosts.onHost(0, cmd), JOB, Map.of());
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertEquals(longerWorkloadOutput(), r.lines(), "stdout differs from the failure-free run\n" + r.stderr());
        assertTrue(r.stderr().contains("rank 1: cmp 1 @ h1"), r.stderr());
        List<String> lines = Files.readAllLines(events);
        String injected = lines.stream().filter(l -> l.contains("failure-injected")).findFirst().orElseThrow();
        Matcher pid = Pattern.compile("\"pid\":(\\d+),\"nativeRank\":1,").matcher(injected);
        assertTrue(pid.find(), injected);
        assertTrue(lines.stream().anyMatch(l -> l.contains("failure-detected")
                && l.contains("\"pid\":" + pid.group(1) + ",")), String.join("\n", lines));
    }

    /** RepairP2p long enough (1.5 s of computation) to kill something in the middle of. */
    private static final String[] LONGER_WORKLOAD = {"300", "5000"};

    /** The failure-free output of {@link #LONGER_WORKLOAD} (one host, unreplicated). */
    private static List<String> longerWorkloadOutput() {
        return FailureFreeRuns.linesWithoutBusyTime(org.fthp.it.programs.RepairP2p.class, 2, JOB, LONGER_WORKLOAD);
    }

    /**
     * Runs fthp-run on h0 as {@link MpiJob#exec} does, and crashes host {@code crashed} as soon as the job's stdout
     * holds {@code trigger}; kills the job (by its process tree) if it outlives {@link #JOB}.
     */
    private static MpiJob.Result runCrashingHost(List<String> fthpRun, String trigger, int crashed)
            throws Exception {
        return runFailingHost(fthpRun, trigger, () -> hosts.crash(crashed));
    }

    /** As {@link #runCrashingHost}, doing {@code failure} (a crash, a cut) once the stdout holds {@code trigger}. */
    private static MpiJob.Result runFailingHost(List<String> fthpRun, String trigger, Runnable failure)
            throws Exception {
        return BackgroundJob.runFailing(hosts.onHost(0, fthpRun), trigger, failure, JOB);
    }

    /** Host {@code k} runs nothing of the job any more (its orted and ranks have gone), within a few seconds. */
    private static void assertNothingLeftOn(int k) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!hosts.pidsOn(k).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), hosts.pidsOn(k), "processes left on " + hosts.name(k));
    }

    /**
     * /tmp/NAME made on every host (each has its own /tmp), as each host's coordinator will make its report
     * pipe there; the path as the hosts see it.
     */
    private static String reportDirOnEveryHost(String name) throws java.io.IOException {
        for (int k = 0; k < hosts.count(); k++) {
            Files.createDirectories(hosts.tmpOf(k).resolve(name));
        }
        return "/tmp/" + name;
    }
}

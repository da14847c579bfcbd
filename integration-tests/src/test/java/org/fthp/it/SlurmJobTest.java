package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.fthp.it.programs.RepairP2p;
import org.fthp.it.programs.RestartIterations;
import org.fthp.it.slurm.SlurmCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * fthp-run as a Slurm batch job, on a real Slurm started for this class on three emulated nodes
 * (scripts/slurm-cluster.sh: slurmctld, munged, one slurmd per network namespace, every file under the test's
 * directory): a replicated job's sbatch ends with the failure-free output; a node killed under it (every process
 * on it, and Slurm told it is down) is survived with the same output; a job told to stop before its time limit
 * (the batch script forwards Slurm's signal) commits a checkpoint and ends, and the same script submitted again
 * resumes: the two jobs' output together is one run's; a requeued job resumes the same way. The batch scripts are
 * the one in examples/slurm with this machine's paths.
 */
class SlurmJobTest {

    private static final Duration JOB = Duration.ofSeconds(150);
    private static final String SUBNET = "10.231.0.0/24";
    private static SlurmCluster slurm;
    private static Path dir;

    @BeforeAll
    static void setUp() throws IOException {
        dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "slurm-");
        try {
            slurm = SlurmCluster.up(MpiJob.home(), dir.resolve("cluster"), 3);
        } catch (SlurmCluster.Unavailable e) {
            Assumptions.abort("no Slurm on this machine: " + e.getMessage());
        }
    }

    @AfterAll
    static void tearDown() throws IOException {
        if (slurm != null) {
            slurm.close();
        }
        // the jobs' output and checkpoints (a failing test has put what it needs in its message)
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The batch script: 3 nodes, one task each, --no-kill; fthp-run in the background so the shell can forward
     * Slurm's warning signal (--signal=B:USR1) to it, and its exit code is the job's.
     */
    private static Path batchScript(String name, String fthpOptions, Class<?> program, String... args)
            throws IOException {
        Path out = dir.resolve(name + "-%j.out");
        Path script = dir.resolve(name + ".sbatch");
        Files.writeString(script, String.join("\n",
                "#!/bin/bash",
                "#SBATCH --nodes=3 --ntasks-per-node=1 --no-kill",
                "#SBATCH --signal=B:USR1@60 --requeue --open-mode=append",
                "#SBATCH --output=" + out + " --error=" + dir.resolve(name + "-%j.err"),
                "cd " + Path.of("").toAbsolutePath(),
                MpiJob.home().resolve("bin/fthp-run") + " -np 2 " + fthpOptions
                        + " --mca oob_tcp_if_include " + SUBNET + " --mca btl_tcp_if_include " + SUBNET
                        + " -- -XX:TieredStopAtLevel=1 -XX:-UsePerfData -cp "
                        + System.getProperty("fthp.programs", "target/classes") + " " + program.getName() + " "
                        + String.join(" ", args) + " &",
                "pid=$!",
                "trap 'kill -USR1 $pid' USR1 TERM",
                "while :; do wait $pid; rc=$?; kill -0 $pid 2>/dev/null || break; done",
                "wait $pid 2>/dev/null; last=$?; [[ $last == 127 ]] || rc=$last",
                "exit $rc",
                ""));
        return script;
    }

    private static String output(String name, String job) throws IOException {
        Path out = dir.resolve(name + "-" + job + ".out");
        return Files.exists(out) ? Files.readString(out) : "";
    }

    private static String errors(String name, String job) throws IOException {
        Path err = dir.resolve(name + "-" + job + ".err");
        return (Files.exists(err) ? Files.readString(err) : "(no stderr)") + "\n" + slurm.logs();
    }

    private static List<String> sortedLines(String out) {
        return out.lines().filter(l -> !l.isBlank()).sorted().toList();
    }

    /** Waits until the job's stdout holds {@code text}. */
    private static void awaitOutput(String name, String job, String text) throws Exception {
        long deadline = System.nanoTime() + JOB.toNanos();
        while (!output(name, job).contains(text)) {
            assertTrue(System.nanoTime() < deadline, "job " + job + " never printed '" + text + "'\n"
                    + errors(name, job));
            assertTrue(slurm.jobField(job, "JobState").matches("PENDING|RUNNING|CONFIGURING"),
                    "job " + job + " ended before printing '" + text + "'\n" + output(name, job) + errors(name, job));
            Thread.sleep(100);
        }
    }

    @Test
    void aReplicatedJobOnThreeNodesEndsWithTheFailureFreeOutput() throws Exception {
        Path script = batchScript("replicated", "--replicas 2 --verbose", RepairP2p.class, "60");
        String job = slurm.sbatch(script);
        String state = slurm.awaitEnd(job, JOB);
        assertEquals("COMPLETED", state, errors("replicated", job));
        assertEquals(FailureFreeRuns.sortedLines(RepairP2p.class, 2, JOB, "60"),
                sortedLines(output("replicated", job)), errors("replicated", job));
        String err = errors("replicated", job);
        assertTrue(err.contains("rank 1: cmp 1 @ n2, rep 3 @ n3"), err);
        assertTrue(err.contains("remote agent: " + MpiJob.home().resolve("scripts/fthp-srun-agent.sh")), err);
        // submitted with --no-kill: no hint
        assertTrue(!err.contains("fthp-run: hint:"), err);
    }

    @Test
    void aNodeKilledUnderAReplicatedJobIsSurvivedWithTheSameOutput() throws Exception {
        Path script = batchScript("nodekill", "--replicas 2 --verbose", RepairP2p.class, "300", "5000");
        String job = slurm.sbatch(script);
        try {
            awaitOutput("nodekill", job, "RepairP2p iteration 40 ");
            slurm.crash("n2");
            String state = slurm.awaitEnd(job, JOB);
            assertEquals("COMPLETED", state, errors("nodekill", job));
            assertEquals(FailureFreeRuns.sortedLinesWithoutBusyTime(RepairP2p.class, 2, JOB, "300", "5000"),
                    sortedLines(output("nodekill", job)), errors("nodekill", job));
            assertTrue(errors("nodekill", job).contains("lost a host (node=1"), errors("nodekill", job));
        } finally {
            // the node comes back for the next test: its slurmd again, and Slurm told it may run jobs
            slurm.restartNode("n2");
        }
    }

    @Test
    void aJobToldToStopBeforeItsTimeLimitCheckpointsAndTheSameScriptResumesIt() throws Exception {
        Path ckpt = dir.resolve("ckpt-limit");
        Path script = batchScript("limit", "--replicas 1 --checkpoint-dir " + ckpt, RestartIterations.class,
                "40", "150");
        String first = slurm.sbatch(script);
        awaitOutput("limit", first, "iteration 12 ");
        // what --signal=B:USR1@60 does 60 s before the time limit
        slurm.client(List.of("scancel", "--signal=USR1", "--batch", first));
        assertEquals("FAILED", slurm.awaitEnd(first, JOB), errors("limit", first));
        assertEquals("75:0", slurm.jobField(first, "ExitCode"), errors("limit", first));
        assertTrue(errors("limit", first).contains("is on disk; ending the job"), errors("limit", first));

        String second = slurm.sbatch(script);
        assertEquals("COMPLETED", slurm.awaitEnd(second, JOB), errors("limit", second));
        assertTrue(errors("limit", second).contains("resuming from checkpoint epoch"), errors("limit", second));
        String expected = MpiJob.run(2, JOB, RestartIterations.class, "40", "0").assertSuccess().stdout();
        assertEquals(expected, output("limit", first) + output("limit", second),
                "the two jobs' output together differs from one run's\n" + errors("limit", second));
    }

    @Test
    @Tag("outside-ci")
    void aRequeuedJobResumesFromItsCheckpoint() throws Exception {
        Path ckpt = dir.resolve("ckpt-requeue");
        Path script = batchScript("requeue", "--checkpoint-dir " + ckpt + " --checkpoint-interval 600",
                RestartIterations.class, "40", "150", "--force", "5");
        String job = slurm.sbatch(script);
        awaitOutput("requeue", job, "iteration 17 ");
        slurm.client(List.of("scontrol", "requeue", job));
        // Slurm holds a requeued job back for a while (its begin time moves 2 minutes ahead); started now instead
        slurm.startWhenPending(job, JOB);
        assertEquals("COMPLETED", slurm.awaitEnd(job, JOB), errors("requeue", job));
        assertEquals("1", slurm.jobField(job, "Restarts"), errors("requeue", job));
        assertTrue(errors("requeue", job).contains("resuming from checkpoint epoch"), errors("requeue", job));
        String expected = MpiJob.run(2, JOB, RestartIterations.class, "40", "0").assertSuccess().stdout();
        assertEquals(expected, output("requeue", job), "the requeued job's output differs from one run's\n"
                + errors("requeue", job));
    }

    @Test
    @Tag("outside-ci")
    void aNodeKilledWithARanksOnlyCopyRelaunchesOnTheLiveNodesWithTheSpare() throws Exception {
        Path ckpt = dir.resolve("ckpt-spare");
        // 2 unreplicated ranks on n1 and n2, n3 held in reserve
        Path script = batchScript("spare", "--checkpoint-dir " + ckpt + " --checkpoint-interval 600 --restart 1",
                RestartIterations.class, "40", "150", "--force", "5");
        String job = slurm.sbatch(script);
        try {
            awaitOutput("spare", job, "iteration 17 ");
            slurm.crash("n2");
            assertEquals("COMPLETED", slurm.awaitEnd(job, JOB), errors("spare", job));
            String err = errors("spare", job);
            assertTrue(err.contains("restart 1 of 1: rank 1 lost every copy (hosts lost: n2); relaunching 2 processes"
                    + " (2 ranks, 0 replicas) on n1:1,n3:1 from checkpoint epoch"), err);
            String expected = MpiJob.run(2, JOB, RestartIterations.class, "40", "0").assertSuccess().stdout();
            assertEquals(expected, output("spare", job), "the relaunched job's output differs from one run's\n" + err);
        } finally {
            slurm.restartNode("n2");
        }
    }
}

package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.fthp.it.programs.RestartIterations;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new job resuming from the checkpoint directory an earlier one left: the launcher killed
 * (SIGKILL) mid-run and the same command run again, or a signal asking for a checkpoint before a time limit; every
 * job's stdout concatenated is the failure-free run's, byte for byte. A directory of another program or another N
 * is refused (exit 3) and left as it was; a damaged newest epoch falls back to the one before; {@code --resume
 * never} starts over and keeps the earlier epochs aside. RestartIterations prints on rank 0 only, so the expected
 * stdout is exact, not sorted.
 */
class ResumeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(150);
    private static final Pattern RESUMED = Pattern.compile("resuming from checkpoint epoch (\\d+)");

    @TempDir
    Path tmp;

    /** What the failure-free run prints (the busy time per iteration changes nothing in it). */
    private static String failureFree(int iterations) {
        return MpiJob.run(2, TIMEOUT, RestartIterations.class, Integer.toString(iterations), "0").assertSuccess()
                .stdout();
    }

    /** fthp-run's command line as MpiJob builds it, for a job the test acts on while it runs. */
    private static List<String> command(List<String> options, int np, String... args) {
        List<String> cmd = new ArrayList<>(List.of(MpiJob.home().resolve("bin/fthp-run").toString(), "-np",
                Integer.toString(np)));
        String mpi = MpiJob.testMpi();
        if (!mpi.isEmpty()) {
            cmd.addAll(List.of("--mpi", mpi));
        }
        cmd.addAll(options);
        cmd.addAll(List.of("--", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xss2m", "-cp",
                System.getProperty("fthp.programs", "target/classes"), RestartIterations.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static long resumedEpoch(String stderr) {
        Matcher m = RESUMED.matcher(stderr);
        assertTrue(m.find(), "a resumed job:\n" + stderr);
        return Long.parseLong(m.group(1));
    }

    /** Runs the job until its stdout shows {@code iteration K}, then does {@code act} with its launcher's pid. */
    private static MpiJob.Result runUntil(List<String> cmd, int iteration, java.util.function.LongConsumer act)
            throws IOException, InterruptedException {
        try (BackgroundJob job = BackgroundJob.start(cmd, Map.of())) {
            assertTrue(job.awaitStdout(out -> out.contains("iteration " + iteration + " "), TIMEOUT),
                    "the job never reached iteration " + iteration + ":\n" + job.stdout() + "\n" + job.stderr());
            act.accept(job.pid());
            return job.await(TIMEOUT);
        }
    }

    @Test
    void aLauncherKilledMidRunIsResumedByTheSameCommandWithOneRunsOutput() throws Exception {
        Path dir = tmp.resolve("ckpt");
        Path events = tmp.resolve("events.jsonl");
        List<String> cmd = command(List.of("--checkpoint-dir", dir.toString(), "--checkpoint-interval", "600",
                "--events", events.toString()), 2, "40", "100", "--force", "5");
        MpiJob.Result killed = runUntil(cmd, 22, pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        // mpirun has a parent-death signal: nothing of the killed job runs on
        killed.assertNoLeftovers();
        assertEquals(137, killed.exitCode(), killed.stderr());

        MpiJob.Result resumed = MpiJob.exec(cmd, TIMEOUT).assertSuccess();
        long epoch = resumedEpoch(resumed.stderr());
        assertTrue(epoch >= 3, resumed.stderr());
        assertEquals(failureFree(40), killed.stdout() + resumed.stdout(),
                "the two jobs' stdout together differs from one run's\n" + resumed.stderr());
        assertTrue(Files.readString(events).contains("\"event\":\"job-resumed\",\"epoch\":" + epoch),
                Files.readString(events));
    }

    @Test
    @Tag("outside-ci")
    void aSignalBeforeTheTimeLimitCheckpointsEndsWith75AndTheNextJobResumes() throws Exception {
        Path dir = tmp.resolve("ckpt");
        List<String> cmd = command(List.of("--replicas", "1", "--checkpoint-dir", dir.toString()), 2, "40", "100");
        MpiJob.Result stopped = runUntil(cmd, 12, pid -> signal("USR1", pid));
        stopped.assertNoLeftovers();
        assertEquals(75, stopped.exitCode(), stopped.stderr());
        assertTrue(stopped.stderr().contains("is on disk; ending the job"), stopped.stderr());

        MpiJob.Result resumed = MpiJob.exec(cmd, TIMEOUT).assertSuccess();
        assertTrue(resumedEpoch(resumed.stderr()) >= 1, resumed.stderr());
        assertEquals(failureFree(40), stopped.stdout() + resumed.stdout(),
                "the two jobs' stdout together differs from one run's\n" + resumed.stderr());
    }

    @Test
    void anotherJobsDirectoryIsRefusedUntouchedADamagedEpochFallsBackAndNeverStartsOver() throws Exception {
        Path dir = tmp.resolve("ckpt");
        List<String> options = List.of("--checkpoint-dir", dir.toString(), "--checkpoint-interval", "600");
        String expected = failureFree(20);
        // an empty directory: the job starts from the beginning, and commits epochs 1 to 4 (two kept)
        MpiJob.Result first = MpiJob.exec(command(options, 2, "20", "0", "--force", "5"), TIMEOUT).assertSuccess();
        assertEquals(expected, first.stdout());
        assertFalse(first.stderr().contains("resuming"), first.stderr());
        Map<String, String> before = tree(dir);

        MpiJob.Result otherN = MpiJob.exec(command(options, 3, "20", "0", "--force", "5"), TIMEOUT)
                .assertNoLeftovers();
        assertEquals(3, otherN.exitCode(), otherN.stderr());
        assertTrue(otherN.stderr().contains("holds the checkpoints of another job (2 ranks there, 3 asked)"),
                otherN.stderr());
        MpiJob.Result otherArgs = MpiJob.exec(command(options, 2, "30", "0", "--force", "5"), TIMEOUT)
                .assertNoLeftovers();
        assertEquals(3, otherArgs.exitCode(), otherArgs.stderr());
        assertTrue(otherArgs.stderr().contains("arguments [20, 0, --force, 5] there, [30, 0, --force, 5] asked"),
                otherArgs.stderr());
        assertEquals(before, tree(dir), "a refused job changed the checkpoint directory");

        // the newest epoch damaged: the one before is resumed; the earlier job printed everything already
        Path piece = dir.resolve("epoch-4/rank-1.piece");
        byte[] bytes = Files.readAllBytes(piece);
        bytes[bytes.length / 2] ^= 1;
        Files.write(piece, bytes);
        MpiJob.Result fallBack = MpiJob.exec(command(options, 2, "20", "0", "--force", "5"), TIMEOUT)
                .assertSuccess();
        assertTrue(fallBack.stderr().contains("checkpoint epoch 4 in " + dir + " is not usable (piece of rank 1"
                + " fails its checksum"), fallBack.stderr());
        assertEquals(3, resumedEpoch(fallBack.stderr()), fallBack.stderr());
        assertEquals("", fallBack.stdout());

        MpiJob.Result over = MpiJob.exec(command(List.of("--checkpoint-dir", dir.toString(), "--resume", "never"),
                2, "20", "0"), TIMEOUT).assertSuccess();
        assertTrue(over.stderr().contains("is now in " + dir.resolve("previous-1")), over.stderr());
        assertEquals(expected, over.stdout());
        assertTrue(Files.exists(dir.resolve("previous-1/epoch-5/MANIFEST")), tree(dir).keySet().toString());
        assertTrue(Files.exists(dir.resolve("previous-1/output/stdout-0")), tree(dir).keySet().toString());
    }

    private static void signal(String name, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -" + name + " " + pid);
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Every file under {@code dir}: its size and CRC32C, by relative path. */
    private static Map<String, String> tree(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                CRC32C crc = new CRC32C();
                byte[] b = Files.readAllBytes(p);
                crc.update(b);
                files.put(dir.relativize(p).toString(), b.length + " " + Long.toHexString(crc.getValue()));
            }
        }
        return files;
    }
}

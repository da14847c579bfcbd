package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.it.programs.CheckpointMisuse;
import org.fthp.it.programs.RepairP2p;
import org.fthp.it.programs.RestartIterations;
import org.junit.jupiter.api.Test;

/**
 * Checkpoint/restart as a user runs it (docs/DESIGN.md §12): a job that loses
 * every copy of a rank is relaunched by fthp-run, every copy of every rank
 * recovers the last committed checkpoint, and the run prints exactly what a
 * run without failures prints. RestartIterations checkpoints when forced every
 * 10 of its 50 iterations (the timer's interval is longer than the run), so
 * which epoch a restart resumes from depends on where the kill lands, not on
 * the machine's load.
 */
class CheckpointRestartTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    private static final String[] WORKLOAD = {"50", "20", "--force", "10"};
    /** About iteration 42 of 50 (four MPI calls an iteration): the forced checkpoint of iteration 40 is committed. */
    private static final int LATE_CALL = 170;
    private static final Pattern RESUMED = Pattern.compile("from checkpoint epoch (\\d+)");

    private static List<String> failureFree() {
        return FailureFreeRuns.sortedLines(RestartIterations.class, 2, TIMEOUT, WORKLOAD);
    }

    private static MpiJob.Result run(List<String> options, Map<String, String> env) {
        return MpiJob.runWith(options, env, 2, TIMEOUT, RestartIterations.class, WORKLOAD).assertSuccess();
    }

    private static long resumedEpoch(MpiJob.Result r) {
        Matcher m = RESUMED.matcher(r.stderr());
        assertTrue(m.find(), "a restart from a checkpoint:\n" + r.stderr());
        return Long.parseLong(m.group(1));
    }

    @Test
    void aReplicatedRankThatLosesBothCopiesRestartsFromItsLastCheckpoint() {
        MpiJob.Result r = run(List.of("--replicas", "2", "--checkpoint-interval", "600", "--restart", "2",
                "--kill", "1:cmp#" + LATE_CALL, "--kill", "1:rep#" + LATE_CALL), Map.of());
        assertEquals(failureFree(), FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n"
                + r.stderr());
        assertTrue(r.stderr().contains("restart 1 of 2: rank 1 lost every copy"), r.stderr());
        assertTrue(resumedEpoch(r) >= 3, r.stderr());
        SdcTest.assertTwinsAgreed(r, 2, 2);
    }

    @Test
    void aDeathWhileWritingAPieceRestartsFromTheEpochBefore() {
        // native rank 1 dies writing its piece of epoch 3 (iteration 30): epoch 3 never commits
        MpiJob.Result r = run(List.of("--checkpoint-interval", "600", "--restart", "1", "-x",
                "FTHP_KILL_IN_CHECKPOINT=1:3"), Map.of());
        assertEquals(failureFree(), FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n"
                + r.stderr());
        assertTrue(r.stderr().contains("kills itself writing its piece of checkpoint 3"), r.stderr());
        assertEquals(2, resumedEpoch(r), r.stderr());
    }

    @Test
    void anUnreplicatedJobRestartsWithReplicasWhenAsked() {
        MpiJob.Result r = run(List.of("--checkpoint-interval", "600", "--restart", "1", "--restart-replicas", "2",
                "--kill", "1#" + LATE_CALL), Map.of());
        assertEquals(failureFree(), FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n"
                + r.stderr());
        assertTrue(r.stderr().contains("(2 ranks, 2 replicas)"), r.stderr());
        assertTrue(resumedEpoch(r) >= 3, r.stderr());
    }

    @Test
    void aProgramWithoutCheckpointsRestartsFromTheBeginning() {
        List<String> expected = FailureFreeRuns.sortedLines(RepairP2p.class, 2, TIMEOUT, "40");
        MpiJob.Result r = MpiJob.runWith(List.of("--restart", "1", "--kill", "1#30"), Map.of(), 2, TIMEOUT,
                RepairP2p.class, "40").assertSuccess();
        assertEquals(expected, FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n"
                + r.stderr());
        assertTrue(r.stderr().contains("from the beginning"), r.stderr());
    }

    /**
     * The only rank dies: with no survivor mpirun ends with 0 (the proxy reports the death as a clean exit),
     * maybe before the coordinators' abort reaches fthp-run, which must still restart the job, or end it with 4.
     */
    @Test
    void aJobWhoseEveryProcessDiesRestartsOrEndsWithExit4() {
        List<String> expected = FailureFreeRuns.sortedLines(RestartIterations.class, 1, TIMEOUT, WORKLOAD);
        MpiJob.Result restarted = MpiJob.runWith(List.of("--checkpoint-interval", "600", "--restart", "1",
                "--kill", "0#" + LATE_CALL), Map.of(), 1, TIMEOUT, RestartIterations.class, WORKLOAD).assertSuccess();
        assertEquals(expected, FailureFreeRuns.sorted(restarted), "stdout differs from the failure-free run\n"
                + restarted.stderr());
        assertTrue(resumedEpoch(restarted) >= 3, restarted.stderr());
        MpiJob.Result lost = MpiJob.runWith(List.of("--checkpoint-interval", "600", "--kill", "0#" + LATE_CALL),
                Map.of(), 1, TIMEOUT, RestartIterations.class, WORKLOAD).assertNoLeftovers();
        assertEquals(4, lost.exitCode(), lost.stderr());
        assertTrue(lost.stderr().contains("rank 0"), lost.stderr());
    }

    @Test
    void withoutRestartsALostRankEndsTheJobWithExit4() {
        MpiJob.Result r = MpiJob.runWith(List.of("--checkpoint-interval", "600", "--kill", "1#" + LATE_CALL),
                Map.of(), 2, TIMEOUT, RestartIterations.class, WORKLOAD).assertNoLeftovers();
        assertEquals(4, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("rank 1"), r.stderr());
    }

    @Test
    void mistakesAreClearErrorsOnEveryRank() {
        MpiJob.runWith(List.of("--checkpoint-interval", "600"), Map.of(), 2, TIMEOUT, CheckpointMisuse.class)
                .assertSuccess();
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--checkpoint-interval", "600"), Map.of(), 2,
                TIMEOUT, CheckpointMisuse.class).assertSuccess();
        assertTrue(r.stdout().contains("CheckpointMisuse OK np=2"), r.stdout());
    }
}

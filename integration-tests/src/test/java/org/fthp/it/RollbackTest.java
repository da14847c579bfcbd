package org.fthp.it;

import static org.fthp.it.InPlaceRollback.assertRolledBackInPlace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.fthp.it.programs.ResilientIterations;
import org.fthp.it.programs.RestartIterations;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Rollback in place (fthp-run --spares, Checkpoint.resilient): a rank that loses every copy is taken by a spare,
 * the survivors unwind to their resilient body and every process resumes from the last committed checkpoint,
 * without a relaunch (no process starts after the first launch), and stdout is that of the failure-free run.
 * Without the entry point, or without a spare, the job relaunches as before and says why. The programs checkpoint
 * when forced every 10 of their 50 iterations, so where a kill lands decides the epoch, not the machine's load.
 */
class RollbackTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    private static final String[] WORKLOAD = {"50", "20", "--force", "10"};
    /** About iteration 42 of 50 (four MPI calls an iteration): the forced checkpoint of iteration 40 is committed. */
    private static final int LATE_CALL = 170;

    private static List<String> failureFree(Class<?> program) {
        return FailureFreeRuns.sortedLines(program, 2, TIMEOUT, WORKLOAD);
    }

    @Test
    void anUnreplicatedRankLostIsTakenByASpareWithoutARelaunch() {
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "1", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#" + LATE_CALL), Map.of(), 2, TIMEOUT, ResilientIterations.class, WORKLOAD)
                .assertSuccess();
        assertRolledBackInPlace(r, failureFree(ResilientIterations.class), ResilientIterations.class, 3);
        assertTrue(r.stderr().contains("rank 1 lost every copy; spare 2 took its place and the job rolled back in"
                + " place to checkpoint epoch 4"), r.stderr());
        assertTrue(r.stderr().contains("1 spares, 1 used"), r.stderr());
        assertTrue(r.stderr().contains("; 1 rollback in place ("), r.stderr());
    }

    @Test
    void bothCopiesOfAReplicatedRankLostAreReplacedByASpare() {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--spares", "1", "--checkpoint-interval", "600",
                "--restart", "1", "--kill", "1:cmp#" + LATE_CALL, "--kill", "1:rep#" + LATE_CALL), Map.of(), 2,
                TIMEOUT, ResilientIterations.class, WORKLOAD).assertSuccess();
        assertRolledBackInPlace(r, failureFree(ResilientIterations.class), ResilientIterations.class, 5);
        assertTrue(r.stderr().contains("rank 1 lost every copy; spare 4 took its place and the job rolled back in"
                + " place to checkpoint epoch 4"), r.stderr());
    }

    /**
     * A rollback, then a second failure in the new generation handled by promotion: the repair's rounds and the
     * acknowledgements that trimmed the send logs it replays from travel on the new generation's control
     * communicator, where nothing of the run that rolled back can be taken for the new run's.
     */
    @Test
    void aPromotionAfterARollbackKeepsTheFailureFreeResult() {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--spares", "1", "--checkpoint-interval", "600",
                "--restart", "1", "--kill", "1:cmp#" + LATE_CALL, "--kill", "1:rep#" + LATE_CALL, "--kill",
                "0:cmp#" + (LATE_CALL + 30)), Map.of(), 2, TIMEOUT, ResilientIterations.class, WORKLOAD)
                .assertSuccess();
        assertRolledBackInPlace(r, failureFree(ResilientIterations.class), ResilientIterations.class, 5);
        assertTrue(r.stderr().contains("rank 1 lost every copy; spare 4 took its place and the job rolled back in"
                + " place to checkpoint epoch 4"), r.stderr());
    }

    /**
     * A copy killed as it begins the rollback (rank 0's replica, FTHP_KILL_IN_ROLLBACK): the others, waiting for it
     * before the rollback's blocking creations, leave for the rollback that supersedes it, without that copy. Every
     * round goes by dissemination here (FTHP_ROUND_ALL_TO_ALL_UP_TO=1, as above 32 processes), the one left too.
     */
    @Test
    void aCopyKilledDuringARollbackRollsBackAgainWithoutIt() {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--spares", "1", "--checkpoint-interval", "600",
                "--restart", "1", "--kill", "1:cmp#" + LATE_CALL, "--kill", "1:rep#" + LATE_CALL),
                Map.of("FTHP_KILL_IN_ROLLBACK", "2:1", "FTHP_ROUND_ALL_TO_ALL_UP_TO", "1"), 2, TIMEOUT,
                ResilientIterations.class, WORKLOAD)
                .assertSuccess();
        assertRolledBackInPlace(r, failureFree(ResilientIterations.class), ResilientIterations.class, 5);
        assertTrue(r.stderr().contains("native rank 2 kills itself beginning the rollback in place to generation 1"),
                r.stderr());
        assertTrue(r.stderr().contains("failed during it; the job rolls back again, without it (generation 2)"),
                r.stderr());
        assertTrue(r.stderr().contains("rank 1 lost every copy; spare 4 took its place and the job rolled back in"
                + " place to checkpoint epoch 4"), r.stderr());
    }

    /**
     * The spare that takes the lost rank killed as it begins, before it registered as the rank's copy (its node counts
     * the loss of its spare connection as that rank's failure): the rank is lost again, and the next spare takes it.
     */
    @Test
    void aSpareKilledDuringItsRollbackIsReplacedByTheNext() {
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "2", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#" + LATE_CALL), Map.of("FTHP_KILL_IN_ROLLBACK", "2:1,3:1"), 2, TIMEOUT,
                ResilientIterations.class, WORKLOAD).assertSuccess();
        assertRolledBackInPlace(r, failureFree(ResilientIterations.class), ResilientIterations.class, 4);
        assertTrue(r.stderr().contains("the job rolls back again, without it (generation 2)"), r.stderr());
        assertTrue(r.stderr().contains("2 spares, 2 used"), r.stderr());
    }

    /** Outside CI: the only spare killed as it begins its rollback: no spare left, the job relaunches and says why. */
    @Test
    @Tag("outside-ci")
    void aSpareKilledDuringItsRollbackWithNoneLeftRelaunchesSayingWhy() {
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "1", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#" + LATE_CALL), Map.of("FTHP_KILL_IN_ROLLBACK", "2:1"), 2, TIMEOUT,
                ResilientIterations.class, WORKLOAD).assertSuccess();
        assertEquals(failureFree(ResilientIterations.class), FailureFreeRuns.sorted(r),
                "stdout differs from the failure-free run\n" + r.stderr());
        assertTrue(r.stderr().contains("no rollback in place: no spare left (during the rollback of generation 1)"),
                r.stderr());
        assertTrue(r.stderr().contains("restart 1 of 1: rank 1 lost every copy"), r.stderr());
    }

    /** Outside CI: on MPICH, a copy killed during a rollback, then a promotion in the generation after. */
    @Test
    @Tag("outside-ci")
    void onMpichACopyKilledDuringARollbackAndAPromotionAfterOne() {
        MpiJob.Result during = MpiJob.runWith(List.of("--mpi", "mpich", "--replicas", "2", "--spares", "1",
                "--checkpoint-interval", "600", "--restart", "1", "--kill", "1:cmp#" + LATE_CALL, "--kill",
                "1:rep#" + LATE_CALL), Map.of("FTHP_KILL_IN_ROLLBACK", "2:1"), 2, TIMEOUT, ResilientIterations.class,
                WORKLOAD).assertSuccess();
        assertEquals(failureFree(ResilientIterations.class), FailureFreeRuns.sorted(during),
                "stdout differs from the failure-free run\n" + during.stderr());
        assertTrue(during.stderr().contains("the job rolls back again, without it (generation 2)"), during.stderr());
        MpiJob.Result after = MpiJob.runWith(List.of("--mpi", "mpich", "--replicas", "2", "--spares", "1",
                "--checkpoint-interval", "600", "--restart", "1", "--kill", "1:cmp#" + LATE_CALL, "--kill",
                "1:rep#" + LATE_CALL, "--kill", "0:cmp#" + (LATE_CALL + 30)), Map.of(), 2, TIMEOUT,
                ResilientIterations.class, WORKLOAD).assertSuccess();
        assertEquals(failureFree(ResilientIterations.class), FailureFreeRuns.sorted(after),
                "stdout differs from the failure-free run\n" + after.stderr());
        assertFalse(after.stderr().contains("restart 1 of 1"), after.stderr());
    }

    /** A spare killed while it waits is no failure of the program: the job goes on with one spare fewer. */
    @Test
    void aSpareKilledWhileItWaitsLeavesTheOtherForTheRollback() {
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "2", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "spare:0@0.5", "--kill", "1#" + LATE_CALL), Map.of(), 2, TIMEOUT,
                ResilientIterations.class, WORKLOAD).assertSuccess();
        assertRolledBackInPlace(r, failureFree(ResilientIterations.class), ResilientIterations.class, 4);
        assertTrue(r.stderr().contains("spare 2 died while it waited; the job goes on with 1 spare"), r.stderr());
        assertTrue(r.stderr().contains("rank 1 lost every copy; spare 3 took its place and the job rolled back in"
                + " place"), r.stderr());
        assertTrue(r.stderr().contains("1 spare lost while waiting"), r.stderr());
    }

    /**
     * One spare, two ranks lost one after the other: the first is rolled back in place, the second relaunches the
     * job (no spare left), which then completes from the checkpoint the rerun committed.
     */
    @Test
    void moreFailuresThanSparesRollBackThenRelaunch() {
        String[] longer = {"100", "20", "--force", "10"};
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "1", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#" + LATE_CALL, "--kill", "0#300"), Map.of(), 2, TIMEOUT, ResilientIterations.class,
                longer).assertSuccess();
        assertEquals(FailureFreeRuns.sortedLines(ResilientIterations.class, 2, TIMEOUT, longer),
                FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n" + r.stderr());
        assertTrue(r.stderr().contains("spare 2 took its place and the job rolled back in place"), r.stderr());
        assertTrue(r.stderr().contains("restart 1 of 1: rank 0 lost every copy"), r.stderr());
        assertTrue(r.stderr().contains("no rollback in place: no spare left"), r.stderr());
    }

    @Test
    void aCommunicatorOrGroupKeptAcrossARollbackIsAClearError() {
        String[] stale = {"50", "20", "--force", "10", "--stale"};
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "1", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#" + (LATE_CALL + 1)), Map.of(), 2, TIMEOUT, ResilientIterations.class, stale)
                .assertSuccess();
        assertRolledBackInPlace(r, FailureFreeRuns.sortedLines(ResilientIterations.class, 2, TIMEOUT, stale),
                ResilientIterations.class, 3);
        assertTrue(r.stderr().contains("ResilientIterations rank 0: stale communicator: made before the job rolled"
                + " back in place"), r.stderr());
        assertTrue(r.stderr().contains("ResilientIterations rank 0: stale group: made before the job rolled back in"
                + " place"), r.stderr());
        // what the body registered with registerArray is not stale: the survivor gets it back, zeroed, then recovered
        assertTrue(r.stderr().contains("ResilientIterations rank 0: registered arrays handed back zeroed, recovered"
                + " in place"), r.stderr());
    }

    /** A survivor that swallows the rollback never reaches the rollback point: at the deadline the job relaunches. */
    @Test
    void aSwallowedRollbackFallsBackToARelaunchNamingTheProcess() {
        String[] swallow = {"50", "20", "--force", "10", "--swallow"};
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "1", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#" + LATE_CALL), Map.of("FTHP_ROLLBACK_DEADLINE_SECONDS", "3"), 2, TIMEOUT,
                ResilientIterations.class, swallow).assertSuccess();
        assertEquals(failureFree(ResilientIterations.class), FailureFreeRuns.sorted(r),
                "stdout differs from the failure-free run\n" + r.stderr());
        assertTrue(r.stderr().contains("ResilientIterations rank 0 swallows"), r.stderr());
        assertTrue(r.stderr().contains("native process(es) [0] did not reach Checkpoint.resilient within 3 s"),
                r.stderr());
        assertTrue(r.stderr().contains("restart 1 of 1: rank 1 lost every copy"), r.stderr());
    }

    @Test
    void aProgramWithoutTheEntryPointRelaunchesAndSaysWhy() {
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "1", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#" + LATE_CALL), Map.of(), 2, TIMEOUT, RestartIterations.class, WORKLOAD)
                .assertSuccess();
        assertEquals(failureFree(RestartIterations.class), FailureFreeRuns.sorted(r),
                "stdout differs from the failure-free run\n" + r.stderr());
        assertTrue(r.stderr().contains("restart 1 of 1: rank 1 lost every copy"), r.stderr());
        assertTrue(r.stderr().contains("no rollback in place: native process 0 is not inside Checkpoint.resilient"),
                r.stderr());
    }
}

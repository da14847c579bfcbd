package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.fthp.it.programs.ResilientIterations;
import org.junit.jupiter.api.Test;

/**
 * Replicas restored from spares (fthp-run --spares, on by default): a rank that lost one of its two copies gets a
 * spare as its replica at the next checkpoint (the job rolls back in place to the epoch just committed), so when its
 * other copy dies later the job survives by promotion, without another rollback and without a relaunch; no process
 * starts after the first launch and stdout is that of the failure-free run. The program checkpoints when forced
 * every 10 of its 50 iterations (four MPI calls an iteration), so where each kill lands decides the epochs: the first
 * kill about iteration 22, the restoration at the checkpoint of iteration 30, the second kill about iteration 42.
 */
class ReplicaRestorationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    private static final String[] WORKLOAD = {"50", "20", "--force", "10"};
    private static final int FIRST_KILL = 90;
    private static final int SECOND_KILL = 170;

    private static MpiJob.Result run(String first, String second) {
        return MpiJob.runWith(List.of("--replicas", "2", "--spares", "1", "--checkpoint-interval", "600",
                "--restart", "1", "--kill", first + "#" + FIRST_KILL, "--kill", second + "#" + SECOND_KILL), Map.of(),
                2, TIMEOUT, ResilientIterations.class, WORKLOAD).assertSuccess();
    }

    private static void assertRestoredThenPromoted(MpiJob.Result r) {
        InPlaceRollback.assertRolledBackInPlace(r,
                FailureFreeRuns.sortedLines(ResilientIterations.class, 2, TIMEOUT, WORKLOAD),
                ResilientIterations.class, 5);
        assertTrue(r.stderr().contains("rank 1 had lost a copy; spare 4 is its replica again, the job rolled back in"
                + " place to checkpoint epoch 3"), r.stderr());
        assertTrue(r.stderr().contains("; 1 replica restored ("), r.stderr());
        assertTrue(r.stderr().contains("1 spares, 1 used"), r.stderr());
        assertTrue(r.stderr().contains("2 failures detected, 1 promotion,"), "the spare was promoted\n" + r.stderr());
        assertFalse(r.stderr().contains("lost every copy"), "the second death is survived by promotion\n"
                + r.stderr());
        assertFalse(r.stderr().contains("rollback in place ("), "no rollback for the second death\n" + r.stderr());
    }

    /** The replica dies; the spare becomes the replica; then the computational copy dies and the spare computes. */
    @Test
    void aKilledReplicaIsRestoredAndTheRankThenSurvivesItsOtherCopy() {
        assertRestoredThenPromoted(run("1:rep", "1:cmp"));
    }

    /**
     * The computational copy dies and its replica is promoted; the spare becomes the promoted copy's replica (the
     * promoted copy keeps computing); then the promoted copy dies and the spare computes.
     */
    @Test
    void aPromotedReplicaGetsASpareAsItsReplicaAndTheRankThenSurvivesItsDeath() {
        assertRestoredThenPromoted(run("1:cmp", "1:rep"));
    }

    @Test
    void aBadRestoreReplicasValueIsAUsageError() {
        for (List<String> bad : List.of(List.of("--spares", "1", "--restore-replicas", "yes"),
                List.of("--restore-replicas", "on"))) {
            MpiJob.Result r = MpiJob.runWith(bad, Map.of(), 2, TIMEOUT, ResilientIterations.class, WORKLOAD);
            assertEquals(2, r.exitCode(), r.stderr());
            assertTrue(r.stderr().startsWith("fthp-run: --restore-replicas "), r.stderr());
        }
    }
}

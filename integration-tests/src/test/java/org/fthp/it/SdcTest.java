package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fthp.it.programs.ResilientIterations;
import org.fthp.it.programs.RestartIterations;
import org.junit.jupiter.api.Test;

/**
 * Silent data corruption (docs/DESIGN.md §22): one bit flipped in one copy of a replicated rank, by
 * {@code --corrupt}, is caught by comparing the twins, the job rolls back to the last verified checkpoint and ends
 * with the failure-free run's stdout; without comparison the flip changes the result; an unreplicated rank is not
 * covered, and says so. RestartIterations makes four MPI calls an iteration and a forced checkpoint every 10 of its
 * 50: call 100 is iteration 25, between the checkpoints of iterations 20 and 30.
 */
class SdcTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    private static final String[] WORKLOAD = {"50", "20", "--force", "10"};
    private static final String SUMMARY_NONE = "0 mismatches";

    /**
     * No false alarm: comparison is on by default, so a replicated run compares its twins (at every checkpoint
     * and at MPI_Finalize at least) and must find them equal.
     */
    static void assertTwinsAgreed(MpiJob.Result r, int replicas, int np) {
        assertTrue(r.stderr().contains("twin comparison covered " + replicas + " of " + np + " ranks"), r.stderr());
        assertTrue(r.stderr().matches("(?s).*covered.*; [1-9][0-9]* comparisons, .*" + SUMMARY_NONE + ".*"),
                r.stderr());
    }

    private static List<String> failureFree() {
        return FailureFreeRuns.sortedLines(RestartIterations.class, 2, TIMEOUT, WORKLOAD);
    }

    private static MpiJob.Result run(List<String> options) {
        return MpiJob.runWith(options, Map.of(), 2, TIMEOUT, RestartIterations.class, WORKLOAD);
    }

    private static List<String> with(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all;
    }

    private static final List<String> ROLLBACK = List.of("--replicas", "2", "--checkpoint-interval", "600",
            "--restart", "2");

    @Test
    void aFlipInTheComputationalCopysStateIsDetectedAndRolledBackAndWithoutComparisonItBites() throws IOException {
        Path events = Files.createTempFile("fthp-sdc-", ".events");
        try {
            MpiJob.Result r = run(with(ROLLBACK, "--events", events.toString(), "--corrupt", "0:cmp:state#100"))
                    .assertSuccess();
            assertEquals(failureFree(), FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n"
                    + r.stderr());
            assertTrue(r.stderr().contains("the twins of rank 0 differ (silent data corruption), rolled back"),
                    r.stderr());
            assertTrue(r.stderr().contains("from checkpoint epoch 2"), r.stderr());
            // RestartIterations marks no rollback point: the coordinators say why they relaunch instead
            assertTrue(r.stderr().contains("no rollback in place after a difference between twins: native process"),
                    r.stderr());
            assertTrue(r.stderr().contains("twin comparison covered 2 of 2 ranks") && r.stderr().contains(
                    "1 mismatches"), r.stderr());
            String log = Files.readString(events);
            assertTrue(log.contains("\"event\":\"sdc-detected\",\"logicalRank\":0,\"epoch\":3"), log);
            assertTrue(log.contains("\"action\":\"rollback\""), log);
        } finally {
            Files.deleteIfExists(events);
        }
        MpiJob.Result off = run(with(ROLLBACK, "--sdc", "off", "--corrupt", "0:cmp:state#100")).assertSuccess();
        assertNotEquals(failureFree(), FailureFreeRuns.sorted(off), "the flip must change the result\n"
                + off.stderr());
        assertTrue(off.stderr().contains("twin comparison off"), off.stderr());
    }

    /**
     * The same flip in a program whose body is in {@code Checkpoint.resilient}: both twins find the difference at the
     * checkpoint of iteration 30 and the job rolls back in place to the epoch of iteration 20, which they verified:
     * no process started after the launch, no relaunch, and nothing the corrupted copy printed is shown.
     */
    @Test
    void aFlipInAResilientProgramRollsBackInPlace() throws IOException {
        Path events = Files.createTempFile("fthp-sdc-", ".events");
        try {
            MpiJob.Result r = MpiJob.runWith(with(ROLLBACK, "--events", events.toString(), "--corrupt",
                    "0:cmp:state#100"), Map.of(), 2, TIMEOUT, ResilientIterations.class, WORKLOAD).assertSuccess();
            InPlaceRollback.assertRolledBackInPlace(r,
                    FailureFreeRuns.sortedLines(ResilientIterations.class, 2, TIMEOUT, WORKLOAD),
                    ResilientIterations.class, 4);
            assertTrue(r.stderr().contains("silent data corruption detected: rank=0 epoch=3 what="), r.stderr());
            assertTrue(r.stderr().contains("the twins of rank 0 differed (silent data corruption); the job rolled"
                    + " back in place to checkpoint epoch 2"), r.stderr());
            assertTrue(r.stderr().contains("; 1 rollback in place ("), r.stderr());
            assertTrue(r.stderr().contains("twin comparison covered 2 of 2 ranks") && r.stderr().contains(
                    "1 mismatches"), r.stderr());
            String log = Files.readString(events);
            assertTrue(log.contains("\"event\":\"sdc-detected\",\"logicalRank\":0,\"epoch\":3"), log);
            assertTrue(log.contains("\"action\":\"rollback\""), log);
            assertEquals(1, log.lines().filter(l -> l.contains("sdc-detected")).count(),
                    "one event for the twins' two reports\n" + log);
        } finally {
            Files.deleteIfExists(events);
        }
    }

    /**
     * A flipped message from rank 0's computational copy to rank 1, which has no replica, compared between
     * checkpoints too (where only the replica compares and its twin runs on until the rollback reaches it), in a job
     * without --restart: the rollback in place needs neither a relaunch nor a spare. Rank 0's replica only logs its
     * clean message, so rank 0's twins differ and rank 1 has no twin to differ (with a replica, rank 1's would too:
     * it gets that message from rank 0's replica, which sent the clean value).
     */
    @Test
    void aFlippedMessageRollsBackInPlaceWithoutARestart() {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "1", "--checkpoint-interval", "600", "--sdc-interval",
                "0.1", "--corrupt", "0:cmp:msg#100"), Map.of(), 2, TIMEOUT, ResilientIterations.class, WORKLOAD)
                .assertSuccess();
        InPlaceRollback.assertRolledBackInPlace(r,
                FailureFreeRuns.sortedLines(ResilientIterations.class, 2, TIMEOUT, WORKLOAD),
                ResilientIterations.class, 3);
        assertTrue(r.stderr().contains("the twins of rank 0 differed (silent data corruption); the job rolled back in"
                + " place to checkpoint epoch 2"), r.stderr());
        assertTrue(r.stderr().contains("; 1 rollback in place ("), r.stderr());
        assertTrue(r.stderr().contains("; 0 restarts"), r.stderr());
    }

    /**
     * The last comparison: 45 iterations, the last checkpoint at iteration 40 and no comparison between
     * checkpoints, so a message flipped in iteration 43 is found only when the resilient body returns. Every process
     * waits there until every rank's twins agreed, so the job is still inside its bodies and rolls back in place to
     * the checkpoint of iteration 40, not relaunched as at MPI_Finalize.
     */
    @Test
    void aDifferenceFoundWhenTheBodyReturnsRollsBackInPlace() {
        String[] workload = {"45", "20", "--force", "10"};
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "1", "--checkpoint-interval", "600", "--sdc-interval",
                "600", "--corrupt", "0:cmp:msg#170"), Map.of(), 2, TIMEOUT, ResilientIterations.class, workload)
                .assertSuccess();
        InPlaceRollback.assertRolledBackInPlace(r,
                FailureFreeRuns.sortedLines(ResilientIterations.class, 2, TIMEOUT, workload),
                ResilientIterations.class, 3);
        assertTrue(r.stderr().contains("silent data corruption detected: rank=0 epoch=5 what=messages"), r.stderr());
        assertTrue(r.stderr().contains("the twins of rank 0 differed (silent data corruption); the job rolled back in"
                + " place to checkpoint epoch 4"), r.stderr());
        assertTrue(r.stderr().contains("; 0 restarts"), r.stderr());
    }

    /**
     * Rank 1's computational copy sends a flipped message (call 100); rank 0's replica dies before the next
     * checkpoint (call 110), so rank 0 is unchecked there and must not wait for its twin; rank 1's twins differ in
     * their messages at the checkpoint of iteration 30, and the job rolls back.
     */
    @Test
    void aFlipInAMessagePayloadIsDetectedAndRolledBackBesideAKill() throws IOException {
        Path events = Files.createTempFile("fthp-sdc-", ".events");
        MpiJob.Result r;
        String log;
        try {
            r = run(with(ROLLBACK, "--events", events.toString(), "--corrupt", "1:cmp:msg#100", "--kill",
                    "0:rep#110")).assertSuccess();
            log = Files.readString(events);
        } finally {
            Files.deleteIfExists(events);
        }
        assertTrue(log.contains("\"event\":\"failure-detected\"")
                && log.contains("\"logicalRank\":0,\"role\":\"REP\""), log);
        assertTrue(log.contains("\"event\":\"sdc-detected\",\"logicalRank\":1"), log);
        assertEquals(failureFree(), FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n"
                + r.stderr());
        assertTrue(r.stderr().contains("the twins of rank 1 differ (silent data corruption), rolled back"),
                r.stderr());
        assertTrue(r.stderr().contains("flips bit"), r.stderr());
    }

    /**
     * Rank 1 has no replica and sends to both copies of rank 0: its flipped message reaches both alike (a wrong value
     * of an unchecked rank), so rank 0's twins still agree, and the result is wrong.
     */
    @Test
    void aFlipInAnUnreplicatedRankIsNotCoveredAndTheSummarySaysSo() {
        MpiJob.Result r = run(List.of("--replicas", "1", "--checkpoint-interval", "600", "--corrupt",
                "1:msg#100")).assertSuccess();
        assertTrue(r.stderr().contains("flips bit"), r.stderr());
        assertNotEquals(failureFree(), FailureFreeRuns.sorted(r), "the flip must change the result\n" + r.stderr());
        assertTrue(r.stderr().contains("twin comparison covered 1 of 2 ranks (rank 1 not covered: no replica)"),
                r.stderr());
        assertTrue(r.stderr().contains(SUMMARY_NONE), r.stderr());
    }

    @Test
    void sdcAbortEndsTheJobWithExit6AndTheMessage() {
        MpiJob.Result r = run(with(ROLLBACK, "--sdc", "abort", "--corrupt", "0:cmp:state#100")).assertNoLeftovers();
        assertEquals(6, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("silent data corruption detected: rank=0"), r.stderr());
        assertTrue(!r.stderr().contains("restart 1 of"), r.stderr());
    }

    @Test
    void badSdcOptionsAreUsageErrors() {
        for (List<String> bad : List.of(List.of("--sdc", "maybe"), List.of("--corrupt", "0:cmp:state"),
                List.of("--corrupt", "0:disk@3"), List.of("--corrupt", "5:state#10"),
                List.of("--replicas", "1", "--corrupt", "1:rep:msg#10"), List.of("--sdc-interval", "-1"))) {
            MpiJob.Result r = run(bad);
            assertEquals(2, r.exitCode(), bad + "\n" + r.stderr());
            assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("fthp-run: ")
                    && (l.contains("--sdc") || l.contains("--corrupt"))), bad + "\n" + r.stderr());
        }
    }
}

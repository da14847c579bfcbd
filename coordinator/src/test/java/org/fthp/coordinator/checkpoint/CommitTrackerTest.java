package org.fthp.coordinator.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fthp.checkpoint.store.PieceEntry;
import org.junit.jupiter.api.Test;

class CommitTrackerTest {
    @Test
    void anEpochCommitsOnceEveryRankIsHeldAndNeverTwice() {
        CommitTracker t = new CommitTracker(3);
        assertTrue(t.held(1, 0, 10).isEmpty());
        assertTrue(t.held(1, 0, 10).isEmpty(), "the same rank twice is one rank");
        assertTrue(t.held(1, 1, 20).isEmpty());
        assertEquals(new CommitTracker.Commit(1, 60), t.held(1, 2, 30).orElseThrow());
        assertTrue(t.held(1, 2, 30).isEmpty());
        assertTrue(t.held(0, 0, 1).isEmpty(), "older than the last commit");
        assertEquals(1, t.lastCommitted());
    }

    @Test
    void aRelaunchedJobCommitsOnlyItsOwnEpochs() {
        CommitTracker t = new CommitTracker(2);
        t.held(1, 0, 10);
        assertEquals(1, t.held(1, 1, 10).orElseThrow().epoch());
        t.held(2, 0, 10);
        t.stopIncarnation();
        // the last copy of an epoch the job never finished arrives late: the restart reads epoch 1, not 2
        assertTrue(t.held(2, 1, 10).isEmpty());
        assertTrue(t.held(2, 0, 10).isEmpty());
        t.startIncarnation(3);
        assertTrue(t.held(2, 0, 10).isEmpty());
        assertTrue(t.held(2, 1, 10).isEmpty(), "an earlier incarnation's epoch never commits");
        assertEquals(1, t.lastCommitted());
        t.held(3, 0, 10);
        assertEquals(3, t.held(3, 1, 10).orElseThrow().epoch());
    }

    @Test
    void costIsTheSlowestRankAndTheMeanCoversTheLastFew() {
        CommitTracker t = new CommitTracker(2);
        assertTrue(t.meanCostSeconds().isEmpty());
        for (long e = 1; e <= 4; e++) {
            assertTrue(t.cost(e, 0, e * 1_000_000_000L).isEmpty());
            assertEquals(e * 2_000_000_000L, t.cost(e, 1, e * 2_000_000_000L).getAsLong());
        }
        assertEquals((4 + 6 + 8) / 3.0, t.meanCostSeconds().getAsDouble(), 1e-9);
    }

    @Test
    void theManifestComesOnceEveryRankIsOnDisk() {
        CommitTracker t = new CommitTracker(2);
        assertTrue(t.onDisk(3, List.of(new PieceEntry(1, 5, 9))).isEmpty());
        var manifest = t.onDisk(3, List.of(new PieceEntry(0, 4, 8))).orElseThrow();
        assertEquals(List.of(new PieceEntry(0, 4, 8), new PieceEntry(1, 5, 9)), manifest.pieces());
    }
}

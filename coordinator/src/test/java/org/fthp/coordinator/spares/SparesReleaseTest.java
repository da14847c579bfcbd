package org.fthp.coordinator.spares;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.client.FailureListener;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.testing.EmulatedJob;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spares on the coordinators: registered apart from the program's processes, told nothing while the program runs,
 * released (on every node) once every program process has finished or failed; a spare's loss is nobody's failure.
 */
@Timeout(30)
class SparesReleaseTest {
    private static final Duration SOON = Duration.ofSeconds(5);

    private EmulatedJob job;

    @AfterEach
    void tearDown() {
        if (job != null) {
            job.close();
        }
    }

    /** Counts a spare's releases and keeps the piece sizes it hears; counts everything else. */
    private static final class SpareListener implements FailureListener {
        final CountDownLatch released = new CountDownLatch(1);
        final java.util.concurrent.BlockingQueue<Long> warm = new java.util.concurrent.LinkedBlockingQueue<>();
        volatile int other;

        @Override
        public void onSpareWarm(long pieceBytes) {
            warm.add(pieceBytes);
        }

        @Override
        public void onSparesReleased() {
            released.countDown();
        }

        @Override
        public void onFailureSet(long epoch, List<FailedProcess> failed) {
            other++;
        }

        @Override
        public void onJobAbort(String reason, int lostRank) {
            other++;
        }
    }

    private CoordinatorClient spare(int node, int nativeRank, SpareListener listener) throws Exception {
        return CoordinatorClient.builder()
                .coordinator(job.hierarchy.address(node))
                .secret(job.secret)
                .pid(EmulatedJob.FAKE_PID_BASE + nativeRank)
                .ranks(nativeRank, nativeRank - job.shape.logicalRanks() - job.shape.replicated(), Role.SPARE)
                .listener(listener)
                .connect();
    }

    @Test
    void sparesOnEveryNodeAreReleasedWhenTheProgramEnds() throws Exception {
        // 2 + 2 on 3 nodes (groups of 2: node 2 reports through the primary's child), spares on nodes 0 and 2
        job = new EmulatedJob(3, 2, 2, 2, Duration.ofSeconds(5));
        SpareListener first = new SpareListener();
        SpareListener second = new SpareListener();
        job.clients.add(spare(0, 4, first));
        job.clients.add(spare(2, 5, second));

        job.clients.get(0).finish();
        job.clients.get(2).finish();
        job.clients.get(3).close();   // a replica fails: no rank is lost
        assertFalse(first.released.await(300, TimeUnit.MILLISECONDS), "released while rank 1 still runs");
        job.clients.get(1).finish();
        assertTrue(first.released.await(SOON.toMillis(), TimeUnit.MILLISECONDS), "spare on the primary");
        assertTrue(second.released.await(SOON.toMillis(), TimeUnit.MILLISECONDS), "spare on node 2");
        assertTrue(first.other == 0 && second.other == 0, "a spare hears only its release");
    }

    @Test
    void aSpareHearsEachLargerPieceItsNodeHoldsAndALateOneTheLargestAtOnce() throws Exception {
        // 2 ranks on 2 nodes: node 0 holds rank 0's piece and the partner copy of rank 1's
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        SpareListener early = new SpareListener();
        job.clients.add(spare(0, 2, early));
        java.nio.ByteBuffer small = java.nio.ByteBuffer.allocate(1000);
        java.nio.ByteBuffer large = java.nio.ByteBuffer.allocate(5000);
        job.clients.get(0).putPiece(1, 0, small.duplicate(), SOON);
        assertEquals(1000L, early.warm.poll(SOON.toMillis(), TimeUnit.MILLISECONDS), "its own rank's piece");
        job.clients.get(1).putPiece(1, 1, large.duplicate(), SOON);
        assertEquals(5000L, early.warm.poll(SOON.toMillis(), TimeUnit.MILLISECONDS), "a partner copy");
        job.clients.get(0).putPiece(2, 0, small.duplicate(), SOON);
        job.clients.get(1).putPiece(2, 1, small.duplicate(), SOON);
        assertTrue(job.clients.get(1).awaitCommitted(2, SOON));
        assertNull(early.warm.poll(300, TimeUnit.MILLISECONDS), "no smaller piece is news");

        SpareListener late = new SpareListener();
        job.clients.add(spare(0, 3, late));
        assertEquals(5000L, late.warm.poll(SOON.toMillis(), TimeUnit.MILLISECONDS), "told at its registration");
        assertTrue(early.other == 0 && late.other == 0, "no failure set, no abort");
    }

    @Test
    void aLostSpareIsNoFailureAndALateOneIsReleasedAtOnce() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        SpareListener lost = new SpareListener();
        CoordinatorClient lostSpare = spare(1, 2, lost);
        lostSpare.close();
        EmulatedJob.assertAllQuiet(job.listeners, Duration.ofMillis(300));

        job.clients.get(0).finish();
        job.clients.get(1).finish();
        Thread.sleep(200);
        SpareListener late = new SpareListener();
        job.clients.add(spare(1, 3, late));
        assertTrue(late.released.await(SOON.toMillis(), TimeUnit.MILLISECONDS), "a spare registering after the end");
    }
}

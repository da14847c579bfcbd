package org.fthp.coordinator.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class PieceMemoryTest {
    private static PieceMemory.Held piece(long epoch, int rank, int size, int crc, boolean local) {
        return new PieceMemory.Held(epoch, rank, PieceBytes.onHeap(java.nio.ByteBuffer.allocate(size)), crc, local);
    }

    @Test
    void reservationsAndPiecesStayWithinTheBound() {
        PieceMemory m = new PieceMemory(100);
        assertTrue(m.reserve(60));
        assertFalse(m.reserve(50), "60 reserved + 50 > 100");
        assertEquals(PieceMemory.Stored.NEW, m.store(piece(1, 0, 60, 7, true)));
        assertEquals(60, m.heldBytes());
        assertTrue(m.reserve(40));
        m.release(40);
        assertFalse(m.reserve(41));
    }

    @Test
    void aSecondPutKeepsTheFirstAndSaysWhetherItMatched() {
        PieceMemory m = new PieceMemory(100);
        m.reserve(10);
        m.store(piece(1, 0, 10, 7, false));
        m.reserve(10);
        assertEquals(PieceMemory.Stored.SAME_AGAIN, m.store(piece(1, 0, 10, 7, true)));
        m.reserve(10);
        assertEquals(PieceMemory.Stored.DIVERGED, m.store(piece(1, 0, 10, 8, true)));
        assertEquals(10, m.heldBytes(), "duplicates hold nothing more, their reservations are released");
        assertTrue(m.reserve(90));
        assertEquals(7, m.get(1, 0).orElseThrow().crc32c());
        assertTrue(m.get(1, 0).orElseThrow().local(), "a local put of a partner copy makes it this node's own");
    }

    @Test
    void dropsByEpochAndTracksThePeak() {
        PieceMemory m = new PieceMemory(1000);
        for (long e = 1; e <= 3; e++) {
            m.reserve(100);
            m.store(piece(e, 0, 100, 1, true));
            m.reserve(100);
            m.store(piece(e, 1, 100, 1, false));
        }
        assertEquals(List.of(1L, 2L, 3L), m.epochs());
        assertEquals(List.of(0), m.localPieces(2).stream().map(PieceMemory.Held::rank).toList());
        m.dropBelow(2);
        assertEquals(List.of(2L, 3L), m.epochs());
        m.dropAbove(2);
        assertEquals(List.of(2L), m.epochs());
        assertEquals(200, m.heldBytes());
        assertEquals(600, m.peakBytes());
    }

    @Test
    void theRestartsEpochOutlivesLaterCommitsAndGivesWayOnlyToNewerPiecesRoom() {
        PieceMemory m = new PieceMemory(300);
        for (long e = 3; e <= 4; e++) {
            m.reserve(100);
            m.store(piece(e, 0, 100, 1, true));
        }
        m.keepForRestart(4);
        assertEquals(List.of(4L), m.epochs(), "older epochs go at the restart");
        assertEquals(-1, m.yieldRestartEpoch(), "nothing newer committed: it is the newest commit, held anyway");
        m.reserve(100);
        m.store(piece(5, 0, 100, 1, true));
        m.dropBelow(5);
        assertEquals(List.of(4L, 5L), m.epochs(), "kept through the relaunched job's commit");
        m.reserve(100);
        m.store(piece(6, 0, 100, 1, true));
        assertFalse(m.reserve(100), "three epochs fill the bound");
        assertEquals(4, m.yieldRestartEpoch());
        assertEquals(List.of(5L, 6L), m.epochs());
        assertTrue(m.reserve(100));
        assertEquals(-1, m.yieldRestartEpoch(), "yielded once");
        m.release(100);
        m.dropBelow(6);
        assertEquals(List.of(6L), m.epochs());
        m.keepForRestart(6);
        m.reserve(100);
        m.store(piece(7, 0, 100, 1, true));
        m.dropBelow(7);
        m.keepForRestart(7);
        assertEquals(List.of(7L), m.epochs(), "a new restart lets the previous one's epoch go");
    }
}

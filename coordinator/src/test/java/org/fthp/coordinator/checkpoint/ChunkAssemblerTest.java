package org.fthp.coordinator.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.zip.CRC32C;

import org.fthp.coordinator.wire.Message;
import org.junit.jupiter.api.Test;

class ChunkAssemblerTest {
    private static final byte[] PIECE = {1, 2, 3, 4, 5, 6, 7};

    private static int crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }

    private static Message.PieceChunk chunk(int from, int to) {
        byte[] part = java.util.Arrays.copyOfRange(PIECE, from, to);
        return new Message.PieceChunk(3, 1, crc(PIECE), PIECE.length, from, part);
    }

    @Test
    void consecutiveChunksMakeTheVerifiedPiece() throws Exception {
        ChunkAssembler a = new ChunkAssembler();
        assertTrue(a.starts(chunk(0, 3)));
        assertTrue(a.accept(chunk(0, 3)).isEmpty());
        assertFalse(a.starts(chunk(3, 5)));
        assertEquals(PIECE.length, a.pendingBytes());
        assertTrue(a.accept(chunk(3, 5)).isEmpty());
        ChunkAssembler.Piece p = a.accept(chunk(5, 7)).orElseThrow();
        assertArrayEquals(PIECE, bytesOf(p));
        ChunkAssembler.verify(p);
        assertEquals(0, a.pendingBytes());
    }

    @Test
    void aGapOrAStrayChunkOrDamageIsABrokenPiece() throws Exception {
        ChunkAssembler a = new ChunkAssembler();
        assertThrows(ChunkAssembler.BrokenPieceException.class, () -> a.accept(chunk(3, 5)));
        a.accept(chunk(0, 3));
        assertThrows(ChunkAssembler.BrokenPieceException.class, () -> a.accept(chunk(5, 7)));
        ChunkAssembler.Piece wrong = new ChunkAssembler.Piece(3, 1,
                PieceBytes.onHeap(java.nio.ByteBuffer.wrap(new byte[] {9, 9, 9, 9, 9, 9, 9})), crc(PIECE));
        assertThrows(ChunkAssembler.BrokenPieceException.class, () -> ChunkAssembler.verify(wrong));
    }

    @Test
    void aRefusedPieceIsDroppedUntilItsLastChunkOrANewStart() {
        ChunkAssembler a = new ChunkAssembler();
        assertFalse(a.refuse(chunk(0, 3)));
        assertTrue(a.skips(chunk(3, 5)));
        assertFalse(a.skips(chunk(0, 3)), "a new first chunk: the sender put the piece again");
        a.refuse(chunk(0, 3));
        assertTrue(a.skips(chunk(3, 7)));
        assertFalse(a.skips(chunk(0, 3)));
    }

    @Test
    void anAbandonedPieceIsForgottenWithItsReservationAndItsLaterChunksAreDropped() throws Exception {
        ChunkAssembler a = new ChunkAssembler();
        a.accept(chunk(0, 3));
        assertEquals(PIECE.length, a.abandon(chunk(3, 5)), "the bytes it had reserved");
        assertEquals(0, a.pendingBytes());
        assertTrue(a.skips(chunk(5, 7)), "the rest of it, as it comes");
        assertEquals(0, a.abandon(chunk(0, 3)), "nothing in progress, nothing reserved");
    }

    @Test
    void theAbandonedEpochsPiecesInProgressGoAndTheOthersStay() throws Exception {
        ChunkAssembler a = new ChunkAssembler();
        a.accept(chunk(0, 3));
        a.accept(new Message.PieceChunk(5, 1, crc(PIECE), PIECE.length, 0, new byte[] {1, 2}));
        assertEquals(PIECE.length, a.dropIf(epoch -> epoch == 3));
        assertEquals(PIECE.length, a.pendingBytes(), "epoch 5's piece is still in progress");
        assertEquals(0, a.dropIf(epoch -> epoch == 3));
    }

    @Test
    void aFirstChunkOfAPieceInProgressStartsItAgain() throws Exception {
        ChunkAssembler a = new ChunkAssembler();
        a.accept(chunk(0, 3));
        assertEquals(PIECE.length, a.restartIfInProgress(chunk(0, 3)));
        assertEquals(0, a.restartIfInProgress(chunk(0, 3)));
        a.accept(chunk(0, 3));
        a.accept(chunk(3, 5));
        assertArrayEquals(PIECE, bytesOf(a.accept(chunk(5, 7)).orElseThrow()));
    }

    private static byte[] bytesOf(ChunkAssembler.Piece p) {
        java.nio.ByteBuffer view = p.bytes().view();
        byte[] out = new byte[view.remaining()];
        view.get(out);
        return out;
    }
}

package org.fthp.coordinator.checkpoint;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

import org.fthp.coordinator.wire.Message;

/**
 * Puts a piece back together from its chunks on one connection. Chunks of a piece come first to last (one
 * connection is one ordered stream); several pieces may be in progress at once. Not thread-safe: one per
 * connection, used on its I/O thread.
 */
public final class ChunkAssembler {
    /** A whole piece, its checksum verified. */
    public record Piece(long epoch, int rank, byte[] bytes, int crc32c) {
    }

    /** A chunk that cannot continue its piece, or a piece whose bytes fail their checksum. */
    public static final class BrokenPieceException extends Exception {
        public BrokenPieceException(String message) {
            super(message);
        }
    }

    private record Key(long epoch, int rank) {
    }

    private static final class Partial {
        final byte[] bytes;
        final int crc32c;
        int filled;

        Partial(long size, int crc32c) {
            this.bytes = new byte[(int) size];
            this.crc32c = crc32c;
        }
    }

    private final Map<Key, Partial> partial = new HashMap<>();
    /** Pieces refused at their first chunk, whose remaining chunks are dropped as they come. */
    private final java.util.Set<Key> refused = new java.util.HashSet<>();

    /** Drops the rest of the piece this (first) chunk starts; true if the chunk was the whole piece. */
    public boolean refuse(Message.PieceChunk first) {
        if (!first.isLast()) {
            refused.add(new Key(first.epoch(), first.rank()));
        }
        return first.isLast();
    }

    /**
     * Whether this chunk belongs to a refused piece (and is to be dropped); the last one ends the refusal, and so
     * does a first chunk (the sender stopped early and is putting the piece again).
     */
    public boolean skips(Message.PieceChunk chunk) {
        Key key = new Key(chunk.epoch(), chunk.rank());
        if (!refused.contains(key)) {
            return false;
        }
        if (chunk.offset() == 0) {
            refused.remove(key);
            return false;
        }
        if (chunk.isLast()) {
            refused.remove(key);
        }
        return true;
    }

    /** Whether this chunk starts a piece (offset 0 and none of that epoch and rank in progress). */
    public boolean starts(Message.PieceChunk chunk) {
        return chunk.offset() == 0 && !partial.containsKey(new Key(chunk.epoch(), chunk.rank()));
    }

    /**
     * A first chunk of a piece already in progress means its sender gave up on the earlier attempt: forgets it and
     * returns the bytes it had reserved (0 if there was none).
     */
    public long restartIfInProgress(Message.PieceChunk chunk) {
        if (chunk.offset() != 0) {
            return 0;
        }
        Partial earlier = partial.remove(new Key(chunk.epoch(), chunk.rank()));
        return earlier == null ? 0 : earlier.bytes.length;
    }

    /** Takes a chunk; returns the piece when this chunk completes it. */
    public Optional<Piece> accept(Message.PieceChunk chunk) throws BrokenPieceException {
        Key key = new Key(chunk.epoch(), chunk.rank());
        Partial p = partial.get(key);
        if (p == null) {
            if (chunk.offset() != 0) {
                throw new BrokenPieceException("epoch " + chunk.epoch() + " rank " + chunk.rank()
                        + ": chunk at " + chunk.offset() + " without the piece's start");
            }
            p = new Partial(chunk.pieceBytes(), chunk.crc32c());
            partial.put(key, p);
        } else if (chunk.offset() != p.filled || chunk.pieceBytes() != p.bytes.length || chunk.crc32c() != p.crc32c) {
            partial.remove(key);
            throw new BrokenPieceException("epoch " + chunk.epoch() + " rank " + chunk.rank() + ": chunk at "
                    + chunk.offset() + " does not continue the piece (" + p.filled + " of " + p.bytes.length + ")");
        }
        System.arraycopy(chunk.bytes(), 0, p.bytes, p.filled, chunk.bytes().length);
        p.filled += chunk.bytes().length;
        if (!chunk.isLast()) {
            return Optional.empty();
        }
        partial.remove(key);
        return Optional.of(new Piece(chunk.epoch(), chunk.rank(), p.bytes, p.crc32c));
    }

    /** Throws unless {@code piece}'s bytes have its checksum (run off the I/O thread: it reads every byte). */
    public static void verify(Piece piece) throws BrokenPieceException {
        CRC32C crc = new CRC32C();
        crc.update(piece.bytes());
        if ((int) crc.getValue() != piece.crc32c()) {
            throw new BrokenPieceException(String.format("epoch %d rank %d: piece arrived damaged (CRC32C %08x,"
                    + " sender said %08x)", piece.epoch(), piece.rank(), (int) crc.getValue(), piece.crc32c()));
        }
    }

    /** Bytes reserved for pieces still in progress, which a closing connection gives back. */
    public long pendingBytes() {
        long sum = 0;
        for (Partial p : partial.values()) {
            sum += p.bytes.length;
        }
        return sum;
    }

    public void clear() {
        partial.clear();
        refused.clear();
    }
}

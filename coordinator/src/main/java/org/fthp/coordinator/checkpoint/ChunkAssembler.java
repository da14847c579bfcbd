package org.fthp.coordinator.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
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
    /** A whole piece (one reference to its bytes, which the taker releases); see {@link #verify}. */
    public record Piece(long epoch, int rank, PieceBytes bytes, int crc32c) {
    }

    /** Where a piece is put together. */
    @FunctionalInterface
    public interface Allocator {
        PieceBytes allocate(long epoch, int rank, long size) throws IOException;
    }

    /** Pieces on the heap (a process's side). */
    public static final Allocator ON_HEAP = (epoch, rank, size) -> PieceBytes.onHeap(ByteBuffer.allocate((int) size));

    /** A chunk that cannot continue its piece, or a piece whose bytes fail their checksum. */
    public static final class BrokenPieceException extends Exception {
        public BrokenPieceException(String message) {
            super(message);
        }
    }

    private record Key(long epoch, int rank) {
    }

    private static final class Partial {
        final PieceBytes bytes;
        final ByteBuffer into;
        final int crc32c;

        Partial(PieceBytes bytes, int crc32c) {
            this.bytes = bytes;
            this.into = bytes.view();
            this.crc32c = crc32c;
        }

        int filled() {
            return into.position();
        }
    }

    private final Allocator allocator;

    public ChunkAssembler() {
        this(ON_HEAP);
    }

    public ChunkAssembler(Allocator allocator) {
        this.allocator = allocator;
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
        if (earlier == null) {
            return 0;
        }
        earlier.bytes.release();
        return earlier.bytes.size();
    }

    /** Takes a chunk; returns the piece when this chunk completes it. */
    public Optional<Piece> accept(Message.PieceChunk chunk) throws BrokenPieceException {
        return accept(chunk, allocator);
    }

    /** As above, a new piece's bytes from {@code into}. */
    public Optional<Piece> accept(Message.PieceChunk chunk, Allocator into) throws BrokenPieceException {
        Key key = new Key(chunk.epoch(), chunk.rank());
        Partial p = partial.get(key);
        if (p == null) {
            if (chunk.offset() != 0) {
                throw new BrokenPieceException("epoch " + chunk.epoch() + " rank " + chunk.rank()
                        + ": chunk at " + chunk.offset() + " without the piece's start");
            }
            try {
                p = new Partial(into.allocate(chunk.epoch(), chunk.rank(), chunk.pieceBytes()), chunk.crc32c());
            } catch (IOException e) {
                throw new BrokenPieceException("epoch " + chunk.epoch() + " rank " + chunk.rank() + ": no room for "
                        + chunk.pieceBytes() + " bytes: " + e.getMessage());
            }
            partial.put(key, p);
        } else if (chunk.offset() != p.filled() || chunk.pieceBytes() != p.bytes.size()
                || chunk.crc32c() != p.crc32c) {
            partial.remove(key);
            p.bytes.release();
            throw new BrokenPieceException("epoch " + chunk.epoch() + " rank " + chunk.rank() + ": chunk at "
                    + chunk.offset() + " does not continue the piece (" + p.filled() + " of " + p.bytes.size() + ")");
        }
        p.into.put(chunk.bytes());
        if (!chunk.isLast()) {
            return Optional.empty();
        }
        partial.remove(key);
        return Optional.of(new Piece(chunk.epoch(), chunk.rank(), p.bytes, p.crc32c));
    }

    /** Throws unless {@code piece}'s bytes have its checksum (run off the I/O thread: it reads every byte). */
    public static void verify(Piece piece) throws BrokenPieceException {
        CRC32C crc = new CRC32C();
        crc.update(piece.bytes().view());
        if ((int) crc.getValue() != piece.crc32c()) {
            throw new BrokenPieceException(String.format("epoch %d rank %d: piece arrived damaged (CRC32C %08x,"
                    + " sender said %08x)", piece.epoch(), piece.rank(), (int) crc.getValue(), piece.crc32c()));
        }
    }

    /** Bytes reserved for pieces still in progress, which a closing connection gives back. */
    public long pendingBytes() {
        long sum = 0;
        for (Partial p : partial.values()) {
            sum += p.bytes.size();
        }
        return sum;
    }

    /**
     * The piece this chunk belongs to will not be used (a rollback in place abandoned its epoch): forgets what of it
     * is in progress and drops its remaining chunks as they come; returns the bytes it had reserved (0 if none).
     */
    public long abandon(Message.PieceChunk chunk) {
        Key key = new Key(chunk.epoch(), chunk.rank());
        if (!chunk.isLast()) {
            refused.add(key);
        }
        return forget(partial.remove(key));
    }

    /**
     * Forgets the pieces in progress whose epoch {@code abandoned} holds (their senders stopped); returns the bytes
     * they had reserved.
     */
    public long dropIf(java.util.function.LongPredicate abandoned) {
        long bytes = 0;
        for (java.util.Iterator<Map.Entry<Key, Partial>> it = partial.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Partial> e = it.next();
            if (abandoned.test(e.getKey().epoch())) {
                it.remove();
                bytes += forget(e.getValue());
            }
        }
        return bytes;
    }

    private static long forget(Partial p) {
        if (p == null) {
            return 0;
        }
        p.bytes.release();
        return p.bytes.size();
    }

    /** Forgets everything in progress (and releases its bytes). */
    public void clear() {
        partial.values().forEach(p -> p.bytes.release());
        partial.clear();
        refused.clear();
    }
}

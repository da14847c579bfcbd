package org.fthp.checkpoint.piece;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Builds one rank's piece: the header fields, then named sections in the order they are added. Arrays and buffers
 * are referenced, not copied, until {@link #encodeInto}: the copy is the snapshot, so encode at the safe point.
 * Object sections are written out when added (their size is only known then).
 *
 * <p>Not thread-safe; one writer per snapshot.
 */
public final class PieceWriter {
    private final int logicalRank;
    private final long epoch;
    private final long stdoutPosition;
    private final long stderrPosition;
    private final List<Pending> sections = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    public PieceWriter(int logicalRank, long epoch, long stdoutPosition, long stderrPosition) {
        if (logicalRank < 0 || epoch < 0 || stdoutPosition < 0 || stderrPosition < 0) {
            throw new IllegalArgumentException("rank, epoch and output positions must be >= 0: rank " + logicalRank
                    + ", epoch " + epoch + ", stdout " + stdoutPosition + ", stderr " + stderrPosition);
        }
        this.logicalRank = logicalRank;
        this.epoch = epoch;
        this.stdoutPosition = stdoutPosition;
        this.stderrPosition = stderrPosition;
    }

    public PieceWriter add(String name, byte[] a) { return add(name, SectionKind.BYTES, a, a.length); }
    public PieceWriter add(String name, short[] a) { return add(name, SectionKind.SHORTS, a, a.length); }
    public PieceWriter add(String name, char[] a) { return add(name, SectionKind.CHARS, a, a.length); }
    public PieceWriter add(String name, int[] a) { return add(name, SectionKind.INTS, a, a.length); }
    public PieceWriter add(String name, long[] a) { return add(name, SectionKind.LONGS, a, a.length); }
    public PieceWriter add(String name, float[] a) { return add(name, SectionKind.FLOATS, a, a.length); }
    public PieceWriter add(String name, double[] a) { return add(name, SectionKind.DOUBLES, a, a.length); }

    /** The buffer's bytes from position to limit (its position is left alone). Heap or direct. */
    public PieceWriter add(String name, ByteBuffer buffer) {
        ByteBuffer view = buffer.duplicate();
        return add(name, SectionKind.BUFFER, view, view.remaining());
    }

    /** What {@code state} writes, as opaque bytes; an IOException from it is rethrown unchecked. */
    public PieceWriter add(String name, StateWriter state) {
        Objects.requireNonNull(state, "state");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            state.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException("section '" + name + "': the object's write(DataOutput) failed", e);
        }
        byte[] written = bytes.toByteArray();
        return add(name, SectionKind.OBJECT, written, written.length);
    }

    private PieceWriter add(String name, SectionKind kind, Object data, long elements) {
        Objects.requireNonNull(data, "section data");
        byte[] encodedName = Objects.requireNonNull(name, "name").getBytes(StandardCharsets.UTF_8);
        if (encodedName.length == 0 || encodedName.length > PieceLayout.MAX_NAME_BYTES) {
            throw new IllegalArgumentException("a section name needs 1.." + PieceLayout.MAX_NAME_BYTES
                    + " UTF-8 bytes: '" + name + "'");
        }
        if (!names.add(name)) {
            throw new IllegalArgumentException("section '" + name + "' is already in this piece");
        }
        sections.add(new Pending(encodedName, kind, data, elements * kind.elementBytes()));
        return this;
    }

    /** The whole piece's size in bytes, header and trailer included. */
    public long encodedBytes() {
        long total = PieceHeader.BYTES + PieceLayout.TRAILER_BYTES;
        for (Pending s : sections) {
            total += PieceLayout.sectionBytes(s.name.length, s.payloadBytes);
        }
        return total;
    }

    /** A new heap buffer holding the piece. */
    public ByteBuffer encode() {
        long size = encodedBytes();
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a piece of " + size + " bytes does not fit one buffer");
        }
        ByteBuffer piece = ByteBuffer.allocate((int) size);
        encodeInto(piece);
        return piece;
    }

    /**
     * Writes the piece at index 0 of {@code piece} (absolute: its position and limit are not used) and returns its
     * CRC32C over all of its bytes, trailer included: the checksum stores and coordinators keep beside it.
     *
     * <p>One pass: the payloads are copied a block at a time and each block is checksummed right after, while it
     * is still in the cache, so the piece is read back from memory for neither checksum (the trailer's, over what
     * precedes it, is the running value at the end; the whole piece's continues it over the trailer).
     */
    public int encodeInto(ByteBuffer piece) {
        long size = encodedBytes();
        if (piece.capacity() < size) {
            throw new IllegalArgumentException("piece needs " + size + " bytes, buffer holds " + piece.capacity());
        }
        ByteBuffer out = piece.duplicate().order(ByteOrder.LITTLE_ENDIAN).clear();
        Checksummed sum = new Checksummed(out);
        new PieceHeader().wrap(out).write(logicalRank, sections.size(), epoch, stdoutPosition, stderrPosition, size);
        int at = PieceHeader.BYTES;
        for (Pending s : sections) {
            out.putInt(at + PieceLayout.NAME_BYTES_OFFSET, s.name.length);
            out.put(at + PieceLayout.KIND_OFFSET, s.kind.code());
            out.put(at + 5, (byte) 0);
            out.putShort(at + 6, (short) 0);
            out.putLong(at + PieceLayout.PAYLOAD_BYTES_OFFSET, s.payloadBytes);
            at += PieceLayout.SECTION_HEADER_BYTES;
            out.put(at, s.name);
            zero(out, at + s.name.length, (int) PieceLayout.align(s.name.length) - s.name.length);
            at += (int) PieceLayout.align(s.name.length);
            sum.upTo(at);
            s.copyPayload(out, at, sum);
            zero(out, at + (int) s.payloadBytes, (int) (PieceLayout.align(s.payloadBytes) - s.payloadBytes));
            at += (int) PieceLayout.align(s.payloadBytes);
            sum.upTo(at);
        }
        sum.upTo(at);
        out.putInt(at, sum.value());
        sum.upTo(at + PieceLayout.TRAILER_BYTES);
        return sum.value();
    }

    /** A CRC32C running behind the writing, over bytes 0..done of the piece. */
    private static final class Checksummed {
        private final ByteBuffer out;
        private final CRC32C crc = new CRC32C();
        private int done;

        Checksummed(ByteBuffer out) {
            this.out = out;
        }

        void upTo(int end) {
            if (end > done) {
                crc.update(out.slice(done, end - done));
                done = end;
            }
        }

        int value() {
            return (int) crc.getValue();
        }
    }

    /** Bytes copied (and checksummed) at a time: well inside the cache, large enough to keep the copies bulk. */
    static final int BLOCK_BYTES = 256 * 1024;

    private static void zero(ByteBuffer out, int from, int n) {
        for (int i = 0; i < n; i++) {
            out.put(from + i, (byte) 0);
        }
    }

    private record Pending(byte[] name, SectionKind kind, Object data, long payloadBytes) {
        /** The payload into {@code out} at {@code at}, a block at a time, each block checksummed as it lands. */
        void copyPayload(ByteBuffer out, int at, Checksummed sum) {
            int width = kind.elementBytes();
            long elements = payloadBytes / width;
            int perBlock = BLOCK_BYTES / width;
            for (long first = 0; first < elements; first += perBlock) {
                int n = (int) Math.min(perBlock, elements - first);
                int from = (int) first;
                int to = at + from * width;
                ByteBuffer dst = out.slice(to, n * width).order(ByteOrder.LITTLE_ENDIAN);
                switch (kind) {
                    case BYTES, OBJECT -> dst.put((byte[]) data, from, n);
                    case SHORTS -> dst.asShortBuffer().put((short[]) data, from, n);
                    case CHARS -> dst.asCharBuffer().put((char[]) data, from, n);
                    case INTS -> dst.asIntBuffer().put((int[]) data, from, n);
                    case LONGS -> dst.asLongBuffer().put((long[]) data, from, n);
                    case FLOATS -> dst.asFloatBuffer().put((float[]) data, from, n);
                    case DOUBLES -> dst.asDoubleBuffer().put((double[]) data, from, n);
                    case BUFFER -> {
                        ByteBuffer src = (ByteBuffer) data;
                        dst.put(src.slice(src.position() + from, n));
                    }
                }
                sum.upTo(to + n * width);
            }
        }
    }
}

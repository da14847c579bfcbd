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
     */
    public int encodeInto(ByteBuffer piece) {
        long size = encodedBytes();
        if (piece.capacity() < size) {
            throw new IllegalArgumentException("piece needs " + size + " bytes, buffer holds " + piece.capacity());
        }
        ByteBuffer out = piece.duplicate().order(ByteOrder.LITTLE_ENDIAN).clear();
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
            s.copyPayload(out.slice(at, (int) s.payloadBytes).order(ByteOrder.LITTLE_ENDIAN));
            zero(out, at + (int) s.payloadBytes, (int) (PieceLayout.align(s.payloadBytes) - s.payloadBytes));
            at += (int) PieceLayout.align(s.payloadBytes);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.slice(0, at));
        out.putInt(at, (int) crc.getValue());
        CRC32C whole = new CRC32C();
        whole.update(out.slice(0, (int) size));
        return (int) whole.getValue();
    }

    private static void zero(ByteBuffer out, int from, int n) {
        for (int i = 0; i < n; i++) {
            out.put(from + i, (byte) 0);
        }
    }

    private record Pending(byte[] name, SectionKind kind, Object data, long payloadBytes) {
        void copyPayload(ByteBuffer dst) {
            switch (kind) {
                case BYTES, OBJECT -> dst.put((byte[]) data);
                case SHORTS -> dst.asShortBuffer().put((short[]) data);
                case CHARS -> dst.asCharBuffer().put((char[]) data);
                case INTS -> dst.asIntBuffer().put((int[]) data);
                case LONGS -> dst.asLongBuffer().put((long[]) data);
                case FLOATS -> dst.asFloatBuffer().put((float[]) data);
                case DOUBLES -> dst.asDoubleBuffer().put((double[]) data);
                case BUFFER -> dst.put(((ByteBuffer) data).duplicate());
            }
        }
    }
}

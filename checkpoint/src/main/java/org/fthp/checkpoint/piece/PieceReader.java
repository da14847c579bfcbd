package org.fthp.checkpoint.piece;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * A decoded piece: checked in full when it is opened (magic, version, every length against what is there, the
 * CRC32C trailer, unique section names), so that reading a section afterwards can only fail for a caller's reason
 * (asking for the wrong kind or size), never because of the bytes. Sections are views of the piece's buffer.
 */
public final class PieceReader {
    private final ByteBuffer piece;
    private final PieceHeader header;
    private final Map<String, Section> sections;

    private PieceReader(ByteBuffer piece, PieceHeader header, Map<String, Section> sections) {
        this.piece = piece;
        this.header = header;
        this.sections = sections;
    }

    /** One section: where its payload lies in the piece. */
    public record Section(String name, SectionKind kind, int payloadOffset, int payloadBytes) {
        public long elements() {
            return payloadBytes / kind.elementBytes();
        }
    }

    /** Checks and indexes the piece in {@code piece}'s bytes 0..limit (the buffer is not copied; do not modify it). */
    public static PieceReader open(ByteBuffer piece) throws CorruptPieceException {
        return open(piece, true);
    }

    /**
     * {@link #open}, for bytes the caller has already checked whole against the CRC32C their writer computed over
     * them (a coordinator client's fetch does, trailer included): every check but the trailer's, which would be a
     * second pass over every byte on a recovery's path.
     */
    public static PieceReader openChecked(ByteBuffer piece) throws CorruptPieceException {
        return open(piece, false);
    }

    private static PieceReader open(ByteBuffer piece, boolean checkTrailer) throws CorruptPieceException {
        ByteBuffer in = piece.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        in.position(0);
        int size = in.limit();
        if (size < PieceHeader.BYTES + PieceLayout.TRAILER_BYTES) {
            throw new CorruptPieceException("piece of " + size + " bytes is shorter than a header and trailer");
        }
        PieceHeader header = new PieceHeader().wrap(in);
        if (header.magic() != PieceHeader.MAGIC) {
            throw new CorruptPieceException(String.format("not a checkpoint piece (magic %08x)", header.magic()));
        }
        if (header.version() != PieceHeader.VERSION || header.headerBytes() != PieceHeader.BYTES) {
            throw new CorruptPieceException("piece format version " + header.version() + " (header "
                    + header.headerBytes() + " bytes) is not the supported version " + PieceHeader.VERSION);
        }
        if (header.pieceBytes() != size) {
            throw new CorruptPieceException("piece says it has " + header.pieceBytes() + " bytes, " + size
                    + " are there (truncated or overlong)");
        }
        int crcAt = size - PieceLayout.TRAILER_BYTES;
        if (checkTrailer) {
            CRC32C crc = new CRC32C();
            crc.update(in.slice(0, crcAt));
            int stored = in.getInt(crcAt);
            if ((int) crc.getValue() != stored) {
                throw new CorruptPieceException(String.format("piece checksum mismatch: stored %08x, computed %08x",
                        stored, (int) crc.getValue()));
            }
        }
        if (header.logicalRank() < 0 || header.epoch() < 0 || header.stdoutPosition() < 0
                || header.stderrPosition() < 0 || header.sectionCount() < 0) {
            throw new CorruptPieceException("negative rank, epoch, output position or section count in the header");
        }
        // From here the bytes are what a writer wrote; the checks below guard against a writer of another making.
        int count = header.sectionCount();
        if (count > (crcAt - PieceHeader.BYTES) / PieceLayout.SECTION_HEADER_BYTES) {
            throw new CorruptPieceException(count + " sections cannot fit in " + size + " bytes");
        }
        Map<String, Section> sections = new LinkedHashMap<>();
        long at = PieceHeader.BYTES;
        for (int i = 0; i < count; i++) {
            if (at + PieceLayout.SECTION_HEADER_BYTES > crcAt) {
                throw new CorruptPieceException("section " + i + " header runs past the end of the piece");
            }
            int nameBytes = in.getInt((int) at + PieceLayout.NAME_BYTES_OFFSET);
            byte code = in.get((int) at + PieceLayout.KIND_OFFSET);
            long payloadBytes = in.getLong((int) at + PieceLayout.PAYLOAD_BYTES_OFFSET);
            SectionKind kind = SectionKind.fromCode(code)
                    .orElseThrow(() -> new CorruptPieceException("section " + sections.size() + ": unknown kind " + code));
            if (nameBytes <= 0 || nameBytes > PieceLayout.MAX_NAME_BYTES) {
                throw new CorruptPieceException("section " + i + ": name of " + nameBytes + " bytes");
            }
            if (payloadBytes < 0 || payloadBytes % kind.elementBytes() != 0) {
                throw new CorruptPieceException("section " + i + ": " + payloadBytes + " bytes of " + kind);
            }
            long nameAt = at + PieceLayout.SECTION_HEADER_BYTES;
            long payloadAt = nameAt + PieceLayout.align(nameBytes);
            long end = payloadAt + PieceLayout.align(payloadBytes);
            if (end > crcAt || end < 0) {
                throw new CorruptPieceException("section " + i + " runs past the end of the piece");
            }
            String name = utf8(in.slice((int) nameAt, nameBytes), i);
            Section s = new Section(name, kind, (int) payloadAt, (int) payloadBytes);
            if (sections.put(name, s) != null) {
                throw new CorruptPieceException("section '" + name + "' appears twice");
            }
            at = end;
        }
        if (at != crcAt) {
            throw new CorruptPieceException((crcAt - at) + " bytes after the last section");
        }
        return new PieceReader(in, header, Collections.unmodifiableMap(sections));
    }

    private static String utf8(ByteBuffer bytes, int index) throws CorruptPieceException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new CorruptPieceException("section " + index + ": name is not UTF-8");
        }
    }

    public int logicalRank() { return header.logicalRank(); }
    public long epoch() { return header.epoch(); }
    public long stdoutPosition() { return header.stdoutPosition(); }
    public long stderrPosition() { return header.stderrPosition(); }

    /** Sections in the order they were written. */
    public Map<String, Section> sections() {
        return sections;
    }

    public Optional<Section> section(String name) {
        return Optional.ofNullable(sections.get(name));
    }

    public void readInto(String name, byte[] dst) { payload(name, SectionKind.BYTES, dst.length).get(dst); }
    public void readInto(String name, short[] dst) { payload(name, SectionKind.SHORTS, dst.length).asShortBuffer().get(dst); }
    public void readInto(String name, char[] dst) { payload(name, SectionKind.CHARS, dst.length).asCharBuffer().get(dst); }
    public void readInto(String name, int[] dst) { payload(name, SectionKind.INTS, dst.length).asIntBuffer().get(dst); }
    public void readInto(String name, long[] dst) { payload(name, SectionKind.LONGS, dst.length).asLongBuffer().get(dst); }
    public void readInto(String name, float[] dst) { payload(name, SectionKind.FLOATS, dst.length).asFloatBuffer().get(dst); }
    public void readInto(String name, double[] dst) { payload(name, SectionKind.DOUBLES, dst.length).asDoubleBuffer().get(dst); }

    /** Copies a {@link SectionKind#BUFFER} section into {@code dst} from its position (which advances). */
    public void readInto(String name, ByteBuffer dst) {
        dst.put(payload(name, SectionKind.BUFFER, dst.remaining()));
    }

    /** Hands an {@link SectionKind#OBJECT} section to {@code state}; reading past its end is an EOFException. */
    public void readInto(String name, StateReader state) throws IOException {
        Section s = require(name, SectionKind.OBJECT);
        byte[] bytes = new byte[s.payloadBytes()];
        piece.get(s.payloadOffset(), bytes);
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
            state.read(in);
        } catch (EOFException e) {
            throw new EOFException("section '" + name + "': the object read past the " + bytes.length
                    + " bytes it wrote");
        }
    }

    private ByteBuffer payload(String name, SectionKind kind, int elements) {
        Section s = require(name, kind);
        if (s.elements() != elements) {
            throw new IllegalArgumentException("section '" + name + "' holds " + s.elements() + " " + kind
                    + " elements, the destination has room for " + elements);
        }
        return piece.slice(s.payloadOffset(), s.payloadBytes()).order(ByteOrder.LITTLE_ENDIAN);
    }

    private Section require(String name, SectionKind kind) {
        Section s = sections.get(name);
        if (s == null) {
            throw new IllegalArgumentException("the piece has no section '" + name + "' (it has " + sections.keySet()
                    + ")");
        }
        if (s.kind() != kind) {
            throw new IllegalArgumentException("section '" + name + "' holds " + s.kind() + ", not " + kind);
        }
        return s;
    }
}

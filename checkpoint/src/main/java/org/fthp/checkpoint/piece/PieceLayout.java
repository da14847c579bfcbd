package org.fthp.checkpoint.piece;

/**
 * Where things sit in a piece after its {@link PieceHeader}: the sections one after another, then the trailer.
 *
 * <p>A section is a 16-byte section header, its UTF-8 name, padding to 8, its payload, padding to 8:
 * <pre>
 *  0 int   name bytes       1..{@link #MAX_NAME_BYTES}
 *  4 byte  kind             {@link SectionKind#code()}
 *  5 byte  reserved (0)
 *  6 short reserved (0)
 *  8 long  payload bytes    a whole number of the kind's elements
 * </pre>
 * Payloads start 8-aligned from the piece's start, so a direct buffer holding the piece can hand out aligned views.
 */
public final class PieceLayout {
    public static final int SECTION_HEADER_BYTES = 16;
    public static final int MAX_NAME_BYTES = 1024;
    public static final int TRAILER_BYTES = 4;
    static final int ALIGNMENT = 8;

    static final int NAME_BYTES_OFFSET = 0;
    static final int KIND_OFFSET = 4;
    static final int PAYLOAD_BYTES_OFFSET = 8;

    private PieceLayout() {
    }

    static long align(long n) {
        return (n + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** Bytes a section with that name and payload takes, paddings included. */
    static long sectionBytes(int nameBytes, long payloadBytes) {
        return SECTION_HEADER_BYTES + align(nameBytes) + align(payloadBytes);
    }
}

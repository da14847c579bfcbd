package org.fthp.checkpoint.piece;

import java.util.Optional;

/** What a section holds, with an explicit wire code (never {@code ordinal()}) and its element size. */
public enum SectionKind {
    BYTES(1, 1),
    SHORTS(2, 2),
    CHARS(3, 2),
    INTS(4, 4),
    LONGS(5, 8),
    FLOATS(6, 4),
    DOUBLES(7, 8),
    /** The contents of a direct {@link java.nio.ByteBuffer} (position to limit), as bytes. */
    BUFFER(8, 1),
    /** Opaque bytes a user object wrote with its {@code write(DataOutput)}. */
    OBJECT(9, 1);

    private final byte code;
    private final int elementBytes;

    SectionKind(int code, int elementBytes) {
        this.code = (byte) code;
        this.elementBytes = elementBytes;
    }

    public byte code() {
        return code;
    }

    public int elementBytes() {
        return elementBytes;
    }

    public static Optional<SectionKind> fromCode(byte code) {
        for (SectionKind k : values()) {
            if (k.code == code) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}

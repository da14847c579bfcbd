package org.fthp.checkpoint.piece;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Flyweight over the fixed header at the start of every piece. All fields little-endian (the byte order of the
 * machines this runs on, so primitive arrays are copied in bulk without swapping).
 *
 * <pre>
 *  0 int   magic            {@link #MAGIC} ("FTCK" read as little-endian bytes)
 *  4 short format version   {@link #VERSION}
 *  6 short header bytes     {@link #BYTES}, so a later version can grow the header and still be recognised
 *  8 int   logical rank
 * 12 int   section count
 * 16 long  epoch
 * 24 long  stdout position  bytes this rank had printed on stdout when the snapshot was taken
 * 32 long  stderr position  the same for stderr
 * 40 long  piece bytes      header + sections + trailer: the whole piece
 * 48 long  reserved (0)
 * 56 long  reserved (0)
 * </pre>
 * The piece ends with a 4-byte trailer: CRC32C of every byte before it ({@link PieceLayout#TRAILER_BYTES}).
 */
public final class PieceHeader {
    public static final int MAGIC = 0x4B435446; // 'F' 'T' 'C' 'K' in memory order
    public static final short VERSION = 1;
    public static final int BYTES = 64;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int HEADER_BYTES_OFFSET = 6;
    static final int RANK_OFFSET = 8;
    static final int SECTION_COUNT_OFFSET = 12;
    static final int EPOCH_OFFSET = 16;
    static final int STDOUT_OFFSET = 24;
    static final int STDERR_OFFSET = 32;
    static final int PIECE_BYTES_OFFSET = 40;

    private ByteBuffer buffer;

    /** Points this flyweight at the piece starting at index 0 of {@code piece} (its byte order is set to LE). */
    public PieceHeader wrap(ByteBuffer piece) {
        this.buffer = piece.order(ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    void write(int logicalRank, int sectionCount, long epoch, long stdoutPosition, long stderrPosition,
               long pieceBytes) {
        buffer.putInt(MAGIC_OFFSET, MAGIC);
        buffer.putShort(VERSION_OFFSET, VERSION);
        buffer.putShort(HEADER_BYTES_OFFSET, (short) BYTES);
        buffer.putInt(RANK_OFFSET, logicalRank);
        buffer.putInt(SECTION_COUNT_OFFSET, sectionCount);
        buffer.putLong(EPOCH_OFFSET, epoch);
        buffer.putLong(STDOUT_OFFSET, stdoutPosition);
        buffer.putLong(STDERR_OFFSET, stderrPosition);
        buffer.putLong(PIECE_BYTES_OFFSET, pieceBytes);
        buffer.putLong(48, 0);
        buffer.putLong(56, 0);
    }

    public int magic() { return buffer.getInt(MAGIC_OFFSET); }
    public short version() { return buffer.getShort(VERSION_OFFSET); }
    public short headerBytes() { return buffer.getShort(HEADER_BYTES_OFFSET); }
    public int logicalRank() { return buffer.getInt(RANK_OFFSET); }
    public int sectionCount() { return buffer.getInt(SECTION_COUNT_OFFSET); }
    public long epoch() { return buffer.getLong(EPOCH_OFFSET); }
    public long stdoutPosition() { return buffer.getLong(STDOUT_OFFSET); }
    public long stderrPosition() { return buffer.getLong(STDERR_OFFSET); }
    public long pieceBytes() { return buffer.getLong(PIECE_BYTES_OFFSET); }
}

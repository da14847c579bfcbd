package org.fthp.checkpoint.store;

/** One rank's piece as a manifest names it: its size and the CRC32C of all its bytes. */
public record PieceEntry(int rank, long bytes, int crc32c) {
    public PieceEntry {
        if (rank < 0 || bytes < 0) {
            throw new IllegalArgumentException("need rank >= 0 and bytes >= 0: rank " + rank + ", bytes " + bytes);
        }
    }
}

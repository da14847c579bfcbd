package org.fthp.msglog;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Off-heap memory for log entries, recycled by power-of-two size class: an
 * entry lives until its destination acknowledges it, a few microseconds to
 * milliseconds, and giving each one its own native allocation and free cost
 * more than the send (glibc returns freed chunks of tens of kilobytes to the
 * kernel and faults them back in). Blocks up to {@value #LARGEST_POOLED}
 * bytes come from one arena and are kept for reuse, so what the log holds at
 * its peak stays allocated (the log limit bounds it); larger ones get an
 * arena of their own, freed with the entry.
 */
final class EntryMemory {

    static final long LARGEST_POOLED = 1L << 20;
    private static final int SMALLEST_SHIFT = 6;

    private final Arena shared = Arena.ofShared();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] free = new ArrayDeque[21 - SMALLEST_SHIFT];

    /** A block of at least {@code bytes}, and the arena to close when it goes (null: give it back here). */
    record Block(MemorySegment segment, Arena own) {}

    Block acquire(long bytes) {
        if (bytes > LARGEST_POOLED) {
            // shared, not confined: the repair thread resends and trims entries the program's thread logged
            Arena own = Arena.ofShared();
            return new Block(own.allocate(bytes, 8), own);
        }
        int c = sizeClass(bytes);
        ArrayDeque<MemorySegment> list = free[c];
        MemorySegment seg = list == null ? null : list.pollLast();
        if (seg == null) {
            seg = shared.allocate(1L << (c + SMALLEST_SHIFT), 8);
        }
        return new Block(seg, null);
    }

    void release(Block b) {
        if (b.own() != null) {
            b.own().close();
            return;
        }
        int c = sizeClass(b.segment().byteSize());
        if (free[c] == null) {
            free[c] = new ArrayDeque<>();
        }
        free[c].addLast(b.segment());
    }

    private static int sizeClass(long bytes) {
        long rounded = Math.max(1L << SMALLEST_SHIFT, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
        return Long.numberOfTrailingZeros(rounded) - SMALLEST_SHIFT;
    }
}

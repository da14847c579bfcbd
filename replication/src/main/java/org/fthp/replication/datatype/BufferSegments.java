package org.fthp.replication.datatype;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * The whole of a {@link Buffer} (from its start to its capacity, position and
 * limit ignored) as a memory segment, remembered for recently used buffers:
 * programs send from the same few buffers over and over, and building the
 * view costs more than a small message's native send.
 */
final class BufferSegments {

    private static final int SLOTS = 16;

    /** A segment made from a direct buffer keeps it alive, so this cache pins at most {@value #SLOTS} buffers. */
    private record Entry(Buffer buffer, MemorySegment segment) {}

    private static final Entry[] CACHE = new Entry[SLOTS];

    private BufferSegments() {}

    static MemorySegment of(Buffer b) {
        int slot = System.identityHashCode(b) & (SLOTS - 1);
        Entry e = CACHE[slot];  // entries are immutable, so a racy read sees a whole one
        if (e != null && e.buffer() == b) {
            return e.segment();
        }
        MemorySegment seg = MemorySegment.ofBuffer(b.duplicate().clear());
        CACHE[slot] = new Entry(b, seg);
        return seg;
    }
}

package org.fthp.replication.staging;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap segments that native nonblocking operations read and write.
 *
 * <p>The garbage collector may move a Java array while a native operation is
 * in flight, so data is staged here instead. Segments come in power-of-two
 * size classes and go back to their class when released; each class keeps at
 * most a few idle segments so a burst of large messages does not pin memory
 * for the rest of the run (unpooled segments are freed by the GC through
 * {@link Arena#ofAuto()}).
 */
public final class StagingPool {

    private static final int MIN_SHIFT = 6;   // 64 B
    private static final int MAX_SHIFT = 31;
    private static final long KEEP_BYTES_PER_CLASS = 8L << 20;
    private static final int MAX_KEEP = 64;

    private final SizeClass[] classes = new SizeClass[MAX_SHIFT + 1];

    public StagingPool() {
        for (int s = MIN_SHIFT; s <= MAX_SHIFT; s++) {
            long bytes = 1L << s;
            int keep = (int) Math.max(2, Math.min(MAX_KEEP, KEEP_BYTES_PER_CLASS / bytes));
            classes[s] = new SizeClass(bytes, keep);
        }
    }

    /** A segment of at least {@code bytes} bytes; give it back with {@link #release}. */
    public MemorySegment acquire(long bytes) {
        if (bytes < 0 || bytes > (1L << MAX_SHIFT)) {
            throw new IllegalArgumentException("staging request of " + bytes + " bytes");
        }
        return classes[shiftFor(bytes)].take();
    }

    public void release(MemorySegment seg) {
        if (seg == null) {
            return;
        }
        long size = seg.byteSize();
        int shift = Long.numberOfTrailingZeros(size);
        if (Long.bitCount(size) == 1 && shift >= MIN_SHIFT && shift <= MAX_SHIFT) {
            classes[shift].give(seg);
        }
    }

    static int shiftFor(long bytes) {
        if (bytes <= (1L << MIN_SHIFT)) {
            return MIN_SHIFT;
        }
        return 64 - Long.numberOfLeadingZeros(bytes - 1);
    }

    private static final class SizeClass {
        private final long bytes;
        private final MemorySegment[] idle;
        private int count;

        SizeClass(long bytes, int keep) {
            this.bytes = bytes;
            this.idle = new MemorySegment[keep];
        }

        synchronized MemorySegment take() {
            if (count > 0) {
                MemorySegment seg = idle[--count];
                idle[count] = null;
                return seg;
            }
            return Arena.ofAuto().allocate(bytes, 64);
        }

        synchronized void give(MemorySegment seg) {
            if (count < idle.length) {
                idle[count++] = seg;
            }
        }
    }
}

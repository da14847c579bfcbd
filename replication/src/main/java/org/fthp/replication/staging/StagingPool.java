package org.fthp.replication.staging;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap memory that native nonblocking operations read and write.
 *
 * <p>The garbage collector may move a Java array while a native operation is
 * in flight, so data is staged here instead. Two kinds of pooled objects, in
 * power-of-two size classes: raw segments (collective buffers) and
 * {@link OpBlock}s (control block plus staging for one point-to-point
 * operation). Each class keeps at most a few idle entries so a burst of large
 * messages does not pin memory for the rest of the run; the rest is freed by
 * the GC through {@link Arena#ofAuto()}.
 */
public final class StagingPool {

    private static final int MIN_SHIFT = 6;   // 64 B
    private static final int MAX_SHIFT = 31;
    private static final long KEEP_BYTES_PER_CLASS = 8L << 20;
    private static final int MAX_KEEP = 64;

    private final SizeClass<MemorySegment>[] segments;
    private final SizeClass<OpBlock>[] blocks;
    private final int handleBytes;
    private final int statusBytes;
    private final long controlSpan;

    /**
     * The pool belongs to the thread that initialised MPI, which makes almost
     * every call: it takes and gives without a lock; other threads share a
     * synchronized stack.
     */
    @SuppressWarnings("unchecked")
    public StagingPool(int handleBytes, int statusBytes) {
        Thread owner = Thread.currentThread();
        this.handleBytes = handleBytes;
        this.statusBytes = statusBytes;
        this.controlSpan = OpBlock.controlSpan(statusBytes);
        segments = new SizeClass[MAX_SHIFT + 1];
        blocks = new SizeClass[MAX_SHIFT + 1];
        for (int s = MIN_SHIFT; s <= MAX_SHIFT; s++) {
            long bytes = 1L << s;
            int keep = (int) Math.max(2, Math.min(MAX_KEEP, KEEP_BYTES_PER_CLASS / bytes));
            segments[s] = new SizeClass<>(keep, owner);
            blocks[s] = new SizeClass<>(keep, owner);
        }
    }

    /** A segment of at least {@code bytes} bytes; give it back with {@link #release}. */
    public MemorySegment acquire(long bytes) {
        int shift = shiftFor(bytes);
        MemorySegment seg = segments[shift].take();
        return seg != null ? seg : allocate(1L << shift);
    }

    public void release(MemorySegment seg) {
        if (seg == null) {
            return;
        }
        int shift = exactShift(seg.byteSize());
        if (shift > 0) {
            segments[shift].give(seg);
        }
    }

    /** A control block with at least {@code stagingBytes} of staging; give it back with {@link #release(OpBlock)}. */
    public OpBlock acquireBlock(long stagingBytes) {
        int shift = shiftFor(controlSpan + stagingBytes);
        OpBlock b = blocks[shift].take();
        return b != null ? b : new OpBlock(allocate(1L << shift), handleBytes, statusBytes, controlSpan);
    }

    public void release(OpBlock block) {
        int shift = exactShift(block.whole().byteSize());
        if (shift > 0) {
            blocks[shift].give(block);
        }
    }

    private static MemorySegment allocate(long bytes) {
        return Arena.ofAuto().allocate(bytes, 64);
    }

    private static int exactShift(long size) {
        int shift = Long.numberOfTrailingZeros(size);
        return Long.bitCount(size) == 1 && shift >= MIN_SHIFT && shift <= MAX_SHIFT ? shift : -1;
    }

    static int shiftFor(long bytes) {
        if (bytes < 0 || bytes > (1L << MAX_SHIFT)) {
            throw new IllegalArgumentException("staging request of " + bytes + " bytes");
        }
        if (bytes <= (1L << MIN_SHIFT)) {
            return MIN_SHIFT;
        }
        return 64 - Long.numberOfLeadingZeros(bytes - 1);
    }

    /** Idle entries of one size class: the owner thread's slot and stack, and a stack other threads share. */
    private static final class SizeClass<T> {
        private final Thread owner;
        private final Stack<T> mine;
        private final Stack<T> shared;
        /**
         * The owner's most recently given entry: an operation that takes one block and gives it back, as every
         * small send and receive does, then touches one field instead of a stack (7 % of the CPU of an 8-byte
         * send and receive pair went to the stacks).
         */
        private T last;

        SizeClass(int keep, Thread owner) {
            this.owner = owner;
            this.mine = new Stack<>(keep);
            this.shared = new Stack<>(keep);
        }

        T take() {
            if (Thread.currentThread() == owner) {
                T t = last;
                if (t != null) {
                    last = null;
                    return t;
                }
                t = mine.pop();
                if (t != null) {
                    return t;
                }
            }
            synchronized (shared) {
                return shared.pop();
            }
        }

        void give(T t) {
            if (Thread.currentThread() == owner) {
                // the newest entry waits in the slot, the one it displaces goes on the stack: still last in, first out
                T displaced = last;
                last = t;
                if (displaced == null || mine.push(displaced)) {
                    return;
                }
                t = displaced;
            }
            synchronized (shared) {
                shared.push(t);
            }
        }
    }

    private static final class Stack<T> {
        private final Object[] items;
        private int count;

        Stack(int capacity) {
            this.items = new Object[capacity];
        }

        @SuppressWarnings("unchecked")
        T pop() {
            if (count == 0) {
                return null;
            }
            T t = (T) items[--count];
            items[count] = null;
            return t;
        }

        boolean push(T t) {
            if (count == items.length) {
                return false;
            }
            items[count++] = t;
            return true;
        }
    }
}

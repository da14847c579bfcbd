package org.fthp.replication.staging;

import java.lang.foreign.MemorySegment;

/**
 * One pooled off-heap block for one native operation: a control part (request
 * handle, test flag, an int scratch slot, the native status) followed by
 * staging bytes. The slices are cut once when the block is first allocated,
 * so reusing a block allocates nothing.
 */
public final class OpBlock {

    private static final long REQUEST = 0;
    private static final long FLAG = 8;
    private static final long SCRATCH = 12;
    private static final long STATUS = 16;

    private final MemorySegment whole;
    private final MemorySegment request;
    private final MemorySegment flag;
    private final MemorySegment scratch;
    private final MemorySegment status;
    private final MemorySegment staging;

    OpBlock(MemorySegment whole, int handleBytes, int statusBytes, long controlSpan) {
        this.whole = whole;
        this.request = whole.asSlice(REQUEST, handleBytes);
        this.flag = whole.asSlice(FLAG, 4);
        this.scratch = whole.asSlice(SCRATCH, 4);
        this.status = whole.asSlice(STATUS, statusBytes);
        this.staging = whole.asSlice(controlSpan);
    }

    /** Bytes of control data before the staging part, rounded to a cache line. */
    static long controlSpan(int statusBytes) {
        return (STATUS + statusBytes + 63) & ~63L;
    }

    MemorySegment whole() { return whole; }
    public MemorySegment request() { return request; }
    public MemorySegment flag() { return flag; }
    public MemorySegment scratch() { return scratch; }
    public MemorySegment status() { return status; }

    /** Staging bytes: at least what was asked for, possibly more (size classes). */
    public MemorySegment staging() { return staging; }
}

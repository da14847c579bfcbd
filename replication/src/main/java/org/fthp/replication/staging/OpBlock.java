package org.fthp.replication.staging;

import java.lang.foreign.MemorySegment;

/**
 * One pooled off-heap block for one native operation: a control part (two
 * adjacent request handles, a test flag, an int scratch slot, two native
 * statuses) followed by staging bytes. Two requests because a large message
 * travels as a header and a payload sent at once. The slices are cut once
 * when the block is first allocated, so reusing a block allocates nothing.
 */
public final class OpBlock {

    private static final long REQUESTS = 0;   // two handles, 8 bytes apart at most
    private static final long FLAG = 16;
    private static final long SCRATCH = 20;
    private static final long STATUSES = 24;

    private final MemorySegment whole;
    private final MemorySegment requests;
    private final MemorySegment request;
    private final MemorySegment request2;
    private final MemorySegment flag;
    private final MemorySegment scratch;
    private final MemorySegment statuses;
    private final MemorySegment status;
    private final MemorySegment staging;
    /** Where the request, the status and the staging bytes are, for native calls that take addresses (JNI). */
    private final long requestAddress;
    private final long statusAddress;
    private final long stagingAddress;

    OpBlock(MemorySegment whole, int handleBytes, int statusBytes, long controlSpan) {
        this.whole = whole;
        this.requests = whole.asSlice(REQUESTS, 2L * handleBytes);
        this.request = whole.asSlice(REQUESTS, handleBytes);
        this.request2 = whole.asSlice(REQUESTS + handleBytes, handleBytes);
        this.flag = whole.asSlice(FLAG, 4);
        this.scratch = whole.asSlice(SCRATCH, 4);
        this.statuses = whole.asSlice(STATUSES, 2L * statusBytes);
        this.status = whole.asSlice(STATUSES, statusBytes);
        this.staging = whole.asSlice(controlSpan);
        this.requestAddress = request.address();
        this.statusAddress = status.address();
        this.stagingAddress = staging.address();
    }

    /** Bytes of control data before the staging part, rounded to a cache line. */
    static long controlSpan(int statusBytes) {
        return (STATUSES + 2L * statusBytes + 63) & ~63L;
    }

    MemorySegment whole() { return whole; }
    public MemorySegment request() { return request; }
    public MemorySegment request2() { return request2; }

    /** Both request handles, adjacent, for MPI_Testall. */
    public MemorySegment requests() { return requests; }

    /** Both statuses, adjacent, for MPI_Testall. */
    public MemorySegment statuses() { return statuses; }
    public MemorySegment flag() { return flag; }
    public MemorySegment scratch() { return scratch; }
    public MemorySegment status() { return status; }

    /** Staging bytes: at least what was asked for, possibly more (size classes). */
    public MemorySegment staging() { return staging; }

    public long requestAddress() { return requestAddress; }
    public long statusAddress() { return statusAddress; }
    public long stagingAddress() { return stagingAddress; }
}

package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;

/**
 * A collective operation's staging memory, reached through this handle so a
 * repair can move the operation to fresh memory: the native collective it
 * was first started with may still write into the old memory (Open MPI
 * progresses every outstanding nonblocking collective), so that memory is
 * abandoned, and whatever the operation's code reads or writes after the
 * move goes through {@link #seg()} to the new one.
 */
public final class Staged {

    private final long bytes;
    private MemorySegment segment;

    Staged(MemorySegment segment, long bytes) {
        this.segment = segment;
        this.bytes = bytes;
    }

    /** The memory now. */
    public MemorySegment seg() {
        return segment;
    }

    long bytes() {
        return bytes;
    }

    void moveTo(MemorySegment fresh) {
        this.segment = fresh;
    }
}

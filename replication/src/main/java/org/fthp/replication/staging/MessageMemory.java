package org.fthp.replication.staging;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Off-heap memory for {@link SharedMessage}s: large logged messages, each
 * held until its destination's copies acknowledged it, so how many are alive
 * at once follows the slowest copy (tens, when a replica lags). Blocks come
 * in size classes a quarter of a power of two apart (a 1 MiB message takes
 * 1.25 MiB, not 2), and idle ones are kept for reuse up to {@link #KEEP_BYTES}
 * in all: a fresh block costs a zeroed allocation and a page fault per page,
 * more than the message's copy. A block beyond that budget is freed at once
 * (its own arena, closed), not left for the garbage collector, which may not
 * run for a long time in a program that allocates little on the heap.
 *
 * <p>Synchronized: the program's thread allocates and frees, a repair's
 * thread frees what its resends held.
 */
public final class MessageMemory {

    /** Idle bytes kept for reuse, all classes together. */
    static final long KEEP_BYTES = 64L << 20;
    private static final long SMALLEST = 4096;

    private final Map<Long, ArrayDeque<Block>> idle = new HashMap<>();
    private long idleBytes;

    /** One block: its memory and the arena that frees it. */
    record Block(MemorySegment segment, Arena arena) {}

    /** A block of at least {@code bytes}. */
    synchronized Block acquire(long bytes) {
        long size = classBytes(bytes);
        ArrayDeque<Block> free = idle.get(size);
        Block b = free == null ? null : free.pollLast();
        if (b != null) {
            idleBytes -= size;
            return b;
        }
        Arena arena = Arena.ofShared();
        return new Block(arena.allocate(size, 64), arena);
    }

    synchronized void release(Block b) {
        long size = b.segment().byteSize();
        if (idleBytes + size > KEEP_BYTES) {
            b.arena().close();
            return;
        }
        idle.computeIfAbsent(size, k -> new ArrayDeque<>()).addLast(b);
        idleBytes += size;
    }

    /** Idle bytes held now. */
    synchronized long idleBytes() {
        return idleBytes;
    }

    /** {@code bytes} rounded up to its class: a multiple of a quarter of the power of two below it. */
    static long classBytes(long bytes) {
        if (bytes <= SMALLEST) {
            return SMALLEST;
        }
        long step = Long.highestOneBit(bytes - 1) / 4;
        return (bytes + step - 1) / step * step;
    }
}

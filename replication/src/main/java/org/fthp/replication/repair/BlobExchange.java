package org.fthp.replication.repair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

import org.fthp.empi.Empi;

/**
 * One all-to-all of byte blobs of any length among the processes of a native
 * communicator, nonblocking: the counts first (an alltoall), then the bytes
 * (an alltoallv). A repair uses it on the new eworld for what every survivor
 * must tell every other (the communicators it holds, its receive records).
 * Each wait goes through the repair's own {@link Waiter}, so a newer failure
 * set abandons it; the native memory of an abandoned exchange is then left
 * allocated, never reused while the library may still write it.
 */
final class BlobExchange {

    /** Waits until {@code done} says so, or abandons by throwing. */
    interface Waiter {
        void await(BooleanSupplier done);
    }

    private final Waiter waiter;

    BlobExchange(Waiter waiter) {
        this.waiter = waiter;
    }

    /** Sends {@code blobs[i]} to index i of {@code comm}; returns what each index sent here. */
    byte[][] exchange(byte[][] blobs, long comm) {
        int n = blobs.length;
        int total = 0;
        for (byte[] b : blobs) {
            total += b.length;
        }
        Arena arena = Arena.ofShared();
        MemorySegment request = Empi.allocateHandles(arena, 1);
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = arena.allocate(Empi.STATUS_BYTES);
        MemorySegment sendCounts = arena.allocate(4L * n);
        MemorySegment recvCounts = arena.allocate(4L * n);
        for (int i = 0; i < n; i++) {
            sendCounts.setAtIndex(ValueLayout.JAVA_INT, i, blobs[i].length);
        }
        Empi.ialltoall(sendCounts, 4, Empi.BYTE, recvCounts, 4, Empi.BYTE, comm, request);
        waiter.await(() -> completed(request, flag, status));
        MemorySegment sendDispls = arena.allocate(4L * n);
        MemorySegment recvDispls = arena.allocate(4L * n);
        int recvTotal = 0;
        for (int i = 0, at = 0; i < n; i++) {
            sendDispls.setAtIndex(ValueLayout.JAVA_INT, i, at);
            at += blobs[i].length;
            recvDispls.setAtIndex(ValueLayout.JAVA_INT, i, recvTotal);
            recvTotal += recvCounts.getAtIndex(ValueLayout.JAVA_INT, i);
        }
        MemorySegment send = arena.allocate(Math.max(1, total));
        for (int i = 0, at = 0; i < n; i++) {
            MemorySegment.copy(blobs[i], 0, send, ValueLayout.JAVA_BYTE, at, blobs[i].length);
            at += blobs[i].length;
        }
        MemorySegment recv = arena.allocate(Math.max(1, recvTotal));
        Empi.ialltoallv(send, sendCounts, sendDispls, Empi.BYTE, recv, recvCounts, recvDispls, Empi.BYTE, comm,
                request);
        waiter.await(() -> completed(request, flag, status));
        byte[][] in = new byte[n][];
        for (int i = 0; i < n; i++) {
            in[i] = recv.asSlice(recvDispls.getAtIndex(ValueLayout.JAVA_INT, i),
                    recvCounts.getAtIndex(ValueLayout.JAVA_INT, i)).toArray(ValueLayout.JAVA_BYTE);
        }
        arena.close();
        return in;
    }

    /** Whether the native request is done (tests it). */
    static boolean completed(MemorySegment request, MemorySegment flag, MemorySegment status) {
        Empi.test(request, flag, status);
        return flag.get(ValueLayout.JAVA_INT, 0) != 0;
    }
}

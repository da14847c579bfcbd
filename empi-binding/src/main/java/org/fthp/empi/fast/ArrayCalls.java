package org.fthp.empi.fast;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;

/**
 * The shallow path's calls of {@link JniCalls} ({@code sendHeaded}, {@code pollArray}, {@code irecvPollArray}) as
 * FFM downcalls that take the program's array itself ({@code Linker.Option.critical(true)}: a heap segment's
 * address, no JNI transition and no array-region function), for callers C2 has compiled. Results as JniCalls'.
 */
public final class ArrayCalls {

    private static final MethodHandle SEND;
    private static final MethodHandle POLL;
    private static final MethodHandle IRECV_POLL;

    /** Whether the library loaded for this MPI. */
    public static final boolean AVAILABLE;

    static {
        MethodHandle send = null, poll = null, irecv = null;
        boolean ok = false;
        try {
            long ignored = Empi.COMM_WORLD;
            SymbolLookup lib = SymbolLookup.libraryLookup(FastPathLibrary.path(), Arena.global());
            Linker linker = Linker.nativeLinker();
            Linker.Option heap = Linker.Option.critical(true);
            ValueLayout.OfInt i = ValueLayout.JAVA_INT;
            ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
            var a = ValueLayout.ADDRESS;
            send = linker.downcallHandle(lib.find("fthp_fp_send_array").orElseThrow(),
                    FunctionDescriptor.of(i, a, i, l, i, i, l, i, i, i, l, l, l, i), heap);
            poll = linker.downcallHandle(lib.find("fthp_fp_poll_array").orElseThrow(),
                    FunctionDescriptor.of(i, l, l, l, i, a, i, i, i), heap);
            irecv = linker.downcallHandle(lib.find("fthp_fp_irecv_poll_array").orElseThrow(),
                    FunctionDescriptor.of(i, i, i, l, l, l, l, i, a, i, i, i), heap);
            ok = JniCalls.AVAILABLE;
        } catch (Throwable e) {
            ok = false;
        }
        SEND = send;
        POLL = poll;
        IRECV_POLL = irecv;
        AVAILABLE = ok;
    }

    private ArrayCalls() {}

    public static int send(MemorySegment array, int payload, long staging, int commId, int source, long sendId,
                           int flags, int dest, int tag, long comm, long request, long status, int tests) {
        try {
            return (int) SEND.invokeExact(array, payload, staging, commId, source, sendId, flags, dest, tag, comm,
                    request, status, tests);
        } catch (Throwable t) {
            throw new EmpiException("fthp_fp_send_array: " + t, t);
        }
    }

    public static int poll(long request, long status, long staging, int capacity, MemorySegment array,
                           int itemBytes, int items, int polls) {
        try {
            return (int) POLL.invokeExact(request, status, staging, capacity, array, itemBytes, items, polls);
        } catch (Throwable t) {
            throw new EmpiException("fthp_fp_poll_array: " + t, t);
        }
    }

    public static int irecvPoll(int source, int tag, long comm, long request, long status, long staging,
                                int capacity, MemorySegment array, int itemBytes, int items, int polls) {
        try {
            return (int) IRECV_POLL.invokeExact(source, tag, comm, request, status, staging, capacity, array,
                    itemBytes, items, polls);
        } catch (Throwable t) {
            throw new EmpiException("fthp_fp_irecv_poll_array: " + t, t);
        }
    }
}

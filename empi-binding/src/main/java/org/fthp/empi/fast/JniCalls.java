package org.fthp.empi.fast;

import java.io.IOException;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;

/**
 * The small-message hot path of EMPI as JNI methods ({@code empi_fastpath.c}): a JNI call costs the interpreter
 * and C1 about what it costs C2, where an FFM downcall and the MemorySegment accesses around it are only cheap once
 * C2 has inlined them. Addresses are of native memory in EMPI's layouts (request slots from
 * {@link Empi#allocateHandles}, statuses from {@link Empi#allocateStatuses}); handles as EMPI passes them. Test
 * results: 1 complete, 0 pending, negative: minus the MPI error code. Nothing here blocks.
 *
 * <p>Loading the class builds or loads the library ({@link FastPathLibrary}) after EMPI's own library; a failure
 * there leaves {@link #AVAILABLE} false and every method unusable, so callers check it once and keep to the FFM
 * path otherwise.
 */
public final class JniCalls {

    /** Whether the library loaded; false where there is no compiler wrapper or the build failed. */
    public static final boolean AVAILABLE = load();

    private JniCalls() {}

    private static boolean load() {
        try {
            long ignored = Empi.COMM_WORLD; // EMPI's library first, opened RTLD_GLOBAL
            System.load(FastPathLibrary.path().toString());
            if (requestBytes() != Empi.HANDLE_BYTES || statusBytes() != Empi.STATUS_BYTES) {
                System.err.println("fthp: fast path built for another MPI (request " + requestBytes() + " B, status "
                        + statusBytes() + " B; EMPI's: " + Empi.HANDLE_BYTES + ", " + Empi.STATUS_BYTES
                        + "), using the FFM path");
                return false;
            }
            return true;
        } catch (IOException | UnsatisfiedLinkError | EmpiException e) {
            System.err.println("fthp: fast path unavailable, using the FFM path: " + e.getMessage());
            return false;
        }
    }

    /** sizeof(MPI_Request) and sizeof(MPI_Status) in the headers the library was built with. */
    static native int requestBytes();

    static native int statusBytes();

    /** MPI_Irecv into {@code buf}, then one MPI_Test. */
    public static native int irecvTest(long buf, int count, long datatype, int source, int tag, long comm,
                                       long request, long status);

    /** MPI_Test. */
    public static native int test(long request, long status);

    /**
     * Copies {@code length} bytes of {@code array} from {@code offset} to {@code staging}, then MPI_Isend of them
     * as {@code datatype} and one MPI_Test.
     */
    public static native int isendArrayTest(byte[] array, int offset, int length, long staging, long datatype,
                                            int dest, int tag, long comm, long request, long status);

    /**
     * As {@link #test}; when complete, copies {@code length} bytes from {@code staging} to {@code array} at
     * {@code offset}.
     */
    public static native int testCopyOut(long request, long status, long staging, byte[] array, int offset,
                                         int length);

    /** Copies {@code length} bytes from {@code address} to {@code array} at {@code offset}. */
    public static native void copyOut(long address, byte[] array, int offset, int length);

    /**
     * Writes an FTHP message header (org.fthp.msglog.MessageHeader) at {@code staging} and copies
     * {@code payload} bytes of {@code array} (a primitive array; {@code bytes}: a {@code byte[]}, copied without
     * pinning it) from byte {@code arrayByte} after it, then
     * MPI_Isend of header and payload as bytes, then up to {@code tests} MPI_Tests (at least one) until it
     * completes: 1 when it did, 0 when still in flight, minus the MPI error code. The caller has checked bounds and
     * room.
     */
    public static native int sendHeaded(Object array, boolean bytes, long arrayByte, int payload, long staging,
                                        int commId, int source, long sendId, int flags, int dest, int tag, long comm,
                                        long request, long status, int tests);

    /**
     * One MPI_Test of a headed receive posted by {@link #irecv} with {@code capacity} bytes; when complete, fills
     * {@code out} (flags, payload bytes, logical source, native tag, send id low, send id high) and, unless the
     * payload travels apart or does not fit, copies its whole items, at most {@code items} of {@code itemBytes},
     * into {@code array} from byte {@code arrayByte}.
     */
    public static native int testReceiveHeaded(long request, long status, long staging, int capacity,
                                               Object array, boolean bytes, long arrayByte, int itemBytes, int items,
                                               int[] out);

    /**
     * MPI_Irecv of up to {@code capacity} bytes into {@code staging}, for {@link #testReceiveHeaded}: 0, or minus the
     * MPI error code. It does not test: the payload must not reach the program's array before the call receiving it
     * has sent from that array (a send-receive-replace posts its receive first).
     */
    public static native int irecvHeaded(int source, int tag, long comm, long request, long staging, int capacity);

    /**
     * {@link #irecvHeaded}, then {@link #testReceiveHeaded}'s test, in one call: for a plain receive, whose payload
     * may reach the program's array at once. Minus the MPI error code when the receive could not be posted (then
     * nothing is posted); otherwise as {@link #testReceiveHeaded}.
     */
    public static native int irecvTestHeaded(int source, int tag, long comm, long request, long status, long staging,
                                             int capacity, Object array, boolean bytes, long arrayByte, int itemBytes,
                                             int items, int[] out);

    /** {@link #pollArray}: not complete yet. */
    public static final int POLL_PENDING = -1;
    /** {@link #pollArray}: complete, but the payload travels apart or does not fit (read the header from staging). */
    public static final int POLL_APART = -2;
    /** {@link #pollArray}: results from minus this down are minus (this + the MPI error code). */
    public static final int POLL_ERROR_BASE = 3;

    /**
     * Polls a headed receive posted into {@code staging} ({@code capacity} bytes) up to {@code polls} times (at least
     * once) until it completes: a wait polls at the native library's speed between returns to Java, and never
     * longer than {@code polls} tests. Returns the payload's bytes when complete (its whole items, at most
     * {@code items} of {@code itemBytes}, copied into {@code array} from byte 0), {@link #POLL_PENDING},
     * {@link #POLL_APART}, or {@code -(POLL_ERROR_BASE + code)} when the test failed (the receive is complete).
     */
    public static native int pollArray(long request, long status, long staging, int capacity, Object array,
                                       boolean bytes, int itemBytes, int items, int polls);

    /**
     * MPI_Irecv of up to {@code capacity} bytes into {@code staging}, then {@link #pollArray}, in one call: a plain
     * receive of a primitive array. {@code -(POLL_ERROR_BASE + code)} also when it could not be posted.
     */
    public static native int irecvPollArray(int source, int tag, long comm, long request, long status, long staging,
                                            int capacity, Object array, boolean bytes, int itemBytes, int items,
                                            int polls);

    /** A completed headed receive's envelope: its logical source (from the header) high, its native tag low. */
    public static native long envelope(long staging, long status);
}

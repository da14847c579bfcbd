package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.staging.StagingPool;

/**
 * One native nonblocking operation in flight, progressed only by
 * {@code MPI_Test}, never by a call that could wait on a dead peer.
 *
 * <p>Owns a small off-heap control block: the native request handle, the
 * test flag, an int scratch slot and the native status, so polling allocates
 * nothing.
 */
public abstract class NativeOp {

    private static final long REQUEST = 0;
    private static final long FLAG = 8;
    private static final long SCRATCH = 12;
    private static final long STATUS = 16;
    public static final int CONTROL_BYTES = 16 + Empi.STATUS_BYTES;

    protected final StagingPool pool;
    protected final MemorySegment control;
    private final MemorySegment requestSeg;
    private final MemorySegment flagSeg;
    private final MemorySegment scratchSeg;
    private final MemorySegment statusSeg;
    private boolean complete;
    private int resultSource;
    private int resultTag;
    private long resultBytes;
    private boolean cancelled;

    protected NativeOp(StagingPool pool) {
        this.pool = pool;
        this.control = pool.acquire(CONTROL_BYTES);
        this.requestSeg = control.asSlice(REQUEST, Empi.HANDLE_BYTES);
        this.flagSeg = control.asSlice(FLAG, 4);
        this.scratchSeg = control.asSlice(SCRATCH, 4);
        this.statusSeg = control.asSlice(STATUS, Empi.STATUS_BYTES);
        Empi.setHandle(control, 0, Empi.REQUEST_NULL);
    }

    /** Where the native call writes its request handle. */
    protected final MemorySegment requestSlot() {
        return requestSeg;
    }

    protected final MemorySegment status() {
        return statusSeg;
    }

    protected final MemorySegment intScratch() {
        return scratchSeg;
    }

    public final boolean isComplete() {
        return complete;
    }

    /**
     * Tests the native request once; on completion runs {@link #onComplete}
     * and frees the control block. Returns whether the operation is complete.
     */
    public final boolean poll() {
        if (complete) {
            return true;
        }
        try {
            Empi.test(requestSeg, flagSeg, statusSeg);
        } catch (RuntimeException e) {
            finish();
            throw e;
        }
        if (flagSeg.get(ValueLayout.JAVA_INT, 0) == 0) {
            return false;
        }
        try {
            if (cancellable() && wasCancelled()) {
                cancelled = true;
                return true;
            }
            onComplete();
        } finally {
            finish();
        }
        return true;
    }

    /** Marks an operation that needed no native request (e.g. to PROC_NULL) as done. */
    protected final void completeLocally() {
        try {
            onComplete();
        } finally {
            finish();
        }
    }

    private void finish() {
        complete = true;
        releaseBuffers();
        pool.release(control);
    }

    /** Records what the program's status will say about this operation. */
    protected final void result(int source, int tag, long bytes) {
        this.resultSource = source;
        this.resultTag = tag;
        this.resultBytes = bytes;
    }

    public final int resultSource() { return resultSource; }
    public final int resultTag() { return resultTag; }
    public final long resultBytes() { return resultBytes; }
    public final boolean cancelled() { return cancelled; }

    /** Whether this kind of operation can be cancelled (receives); spares the others a native call. */
    protected boolean cancellable() {
        return false;
    }

    private boolean wasCancelled() {
        Empi.testCancelled(status(), intScratch());
        return intScratch().get(ValueLayout.JAVA_INT, 0) != 0;
    }

    /** The native request finished successfully: deliver results to the user. */
    protected abstract void onComplete();

    /** Returns staging memory to the pool (the message log will keep send payloads instead). */
    protected abstract void releaseBuffers();

    /** Requests cancellation of the native operation (receives only, in practice). */
    public void cancel() {
        if (!complete) {
            Empi.cancel(requestSeg);
        }
    }
}

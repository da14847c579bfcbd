package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.staging.OpBlock;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.TwinLink;

/**
 * One native nonblocking operation in flight, progressed only by
 * {@code MPI_Test}, never by a call that could wait on a dead peer.
 *
 * <p>Owns one {@link OpBlock} from the staging pool: the native request
 * handle, test flag and status (so polling allocates nothing) followed by the
 * operation's own staging bytes, so a small message costs one pool round
 * trip and no allocation of native memory.
 */
public abstract class NativeOp {

    protected final StagingPool pool;
    private final OpBlock block;
    private final MemorySegment staging;
    private boolean complete;
    private int resultSource;
    private int resultTag;
    private long resultBytes;
    private boolean cancelled;
    private boolean cancelRequested;
    private boolean twoRequests;
    private TwinLink twin;
    private int twinTag;
    private MemorySegment twinData;
    private TwinStep twinStep = TwinStep.NONE;

    /** Where the operation stands with the process's twin (DESIGN §7). */
    private enum TwinStep {
        NONE,
        /** Decides: once done, its outcome goes to the replica before it completes. */
        FORWARD_WHEN_DONE,
        /** The outcome is on its way to the replica. */
        FORWARDING,
        /** Follows: the native request is the receive of the twin's outcome. */
        FOLLOWING
    }

    protected NativeOp(StagingPool pool) {
        this(pool, 0);
    }

    /** An operation with {@code stagingBytes} of staging memory next to its control part. */
    protected NativeOp(StagingPool pool, long stagingBytes) {
        this.pool = pool;
        this.block = pool.acquireBlock(stagingBytes);
        this.staging = stagingBytes == 0 ? null : block.staging();
        // the request slots are written by the native call that starts the operation
    }

    /** The staging bytes reserved at construction (null if none); may be longer than asked for. */
    protected final MemorySegment staging() {
        return staging;
    }

    /** Where the native call writes its request handle. */
    protected final MemorySegment requestSlot() {
        return block.request();
    }

    /**
     * A second request that must also complete (a large message's payload,
     * sent together with its header). Its status is not kept.
     */
    protected final MemorySegment secondRequestSlot() {
        twoRequests = true;
        return block.request2();
    }

    protected final MemorySegment status() {
        return block.status();
    }

    protected final MemorySegment intScratch() {
        return block.scratch();
    }

    public final boolean isComplete() {
        return complete;
    }

    /**
     * Tests the native request once; on completion runs {@link #onComplete}
     * and returns the block to the pool. Returns whether the operation is complete.
     */
    public final boolean poll() {
        if (complete) {
            return true;
        }
        boolean again;
        try {
            if (twoRequests) {
                Empi.testall(2, block.requests(), block.flag(), block.statuses());
            } else {
                Empi.test(block.request(), block.flag(), block.status());
            }
            if (block.flag().get(ValueLayout.JAVA_INT, 0) == 0) {
                return false;
            }
            twoRequests = false;
            if (cancelRequested && wasCancelled()) {
                cancelled = true;
                finish();
                return true;
            }
            switch (twinStep) {
                case FOLLOWING -> {
                    twinStep = TwinStep.NONE;
                    again = afterTwin();
                }
                case FORWARDING -> again = false;
                default -> {
                    again = startNextPhase();
                    if (!again && twinStep == TwinStep.FORWARD_WHEN_DONE) {
                        startForward();
                        again = true;
                    }
                }
            }
        } catch (RuntimeException e) {
            finish();
            throw e;
        }
        if (again) {
            return false;
        }
        try {
            onComplete();
        } finally {
            finish();
        }
        return true;
    }

    /**
     * Marks an operation that needed no native request (e.g. to PROC_NULL) as
     * done; one that decides for a replica still forwards its outcome first.
     */
    protected final void completeLocally() {
        if (twinStep == TwinStep.FORWARD_WHEN_DONE) {
            try {
                startForward();
            } catch (RuntimeException e) {
                finish();
                throw e;
            }
            return;
        }
        try {
            onComplete();
        } finally {
            finish();
        }
    }

    private void finish() {
        complete = true;
        releaseBuffers();
        pool.release(block);
    }

    /**
     * This operation decides for the replica: when it is done, before it
     * completes, {@link #twinPayload()} is sent to the twin with {@code tag}
     * (what the replica's matching operation awaits).
     */
    protected final void forwardWhenDone(TwinLink link, int tag, MemorySegment data) {
        this.twin = link;
        this.twinTag = tag;
        this.twinData = data;
        this.twinStep = TwinStep.FORWARD_WHEN_DONE;
    }

    /**
     * This operation follows its twin: its first native step receives the
     * twin's outcome ({@code into.byteSize()} bytes, tag {@code tag}); then
     * {@link #afterTwin()} decides what comes next.
     */
    protected final void followTwin(TwinLink link, int tag, MemorySegment into) {
        this.twinStep = TwinStep.FOLLOWING;
        MemorySegment target = into == null ? block.scratch().asSlice(0, 0) : into;
        Empi.irecv(target, (int) target.byteSize(), Empi.BYTE, link.twinRank(), tag, link.comm(), block.request());
    }

    /** What goes to the replica once this operation is done (default: the segment given to forwardWhenDone). */
    protected MemorySegment twinPayload() {
        return twinData;
    }

    /** The twin's outcome arrived: start another native step and return true, or return false when done. */
    protected boolean afterTwin() {
        return false;
    }

    private void startForward() {
        MemorySegment data = twinPayload();
        if (data == null) {
            data = block.scratch().asSlice(0, 0);
        }
        twinStep = TwinStep.FORWARDING;
        Empi.isend(data, (int) data.byteSize(), Empi.BYTE, twin.twinRank(), twinTag, twin.comm(), block.request());
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

    private boolean wasCancelled() {
        Empi.testCancelled(block.status(), block.scratch());
        return block.scratch().get(ValueLayout.JAVA_INT, 0) != 0;
    }

    /**
     * Called when the native request(s) finished: an operation that needs
     * another native step (a large message's payload after its header) starts
     * it here, in {@link #requestSlot()}, and returns true.
     */
    protected boolean startNextPhase() {
        return false;
    }

    /** The native request finished successfully: deliver results to the user. */
    protected abstract void onComplete();

    /** Returns extra staging memory to the pool (the message log will keep send payloads instead). */
    protected abstract void releaseBuffers();

    /** Requests cancellation of the native operation (receives only, in practice). */
    public void cancel() {
        if (!complete) {
            cancelRequested = true;
            Empi.cancel(block.request());
        }
    }
}

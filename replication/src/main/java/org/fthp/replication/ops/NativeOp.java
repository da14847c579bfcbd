package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

import org.fthp.empi.Empi;
import org.fthp.replication.staging.OpBlock;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.twins.TwinLink;

/**
 * One native nonblocking operation in flight, progressed only by
 * {@code MPI_Test}, never by a call that could wait on a dead peer.
 *
 * <p>Owns one {@link OpBlock} from the staging pool: the native request
 * handle, test flag and status (so polling allocates nothing) followed by the
 * operation's own staging bytes, so a small message costs one pool round
 * trip and no allocation of native memory.
 */
public abstract class NativeOp extends InFlight.Entry implements BooleanSupplier {

    protected final OpContext context;
    protected final StagingPool pool;
    private final OpBlock block;
    private final MemorySegment staging;
    private boolean complete;
    /**
     * Why it completed with an error, thrown again by every later poll: whoever polled it first (a repair
     * progressing every operation in flight, say) need not be the program's wait that must report it.
     */
    private RuntimeException failure;
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
    /** What replaced this operation after a repair: polling this one polls it. */
    private NativeOp successor;
    /**
     * Started by a repair, for the repair (a communicator it builds, a
     * replay, a resend): a later repair drops it rather than start it again,
     * since that repair plans its own. A replacement for an operation of the
     * program is not one of these: it must carry on through every later repair.
     */
    private boolean bornInRepair;

    /** Where the operation stands with the process's twin (docs/DESIGN.md §7). */
    private enum TwinStep {
        NONE,
        /** Decides: once done, its outcome goes to the replica before it completes. */
        FORWARD_WHEN_DONE,
        /** The outcome is on its way to the replica. */
        FORWARDING,
        /** Follows: the native request is the receive of the twin's outcome. */
        FOLLOWING
    }

    protected NativeOp(OpContext context) {
        this(context, 0);
    }

    /** An operation with {@code stagingBytes} of staging memory next to its control part. */
    protected NativeOp(OpContext context, long stagingBytes) {
        this.context = context;
        this.pool = context.pool();
        this.bornInRepair = context.inFlight().repairing();
        this.block = pool.acquireBlock(stagingBytes);
        this.staging = stagingBytes == 0 ? null : block.staging();
        // the request slots are written by the native call that starts the operation
        context.inFlight().add(this);
    }

    /**
     * An operation whose native part was already started in {@code started}, a block from the pool that it
     * now owns (its staging, if any, is the block's).
     */
    protected NativeOp(OpContext context, OpBlock started) {
        this.context = context;
        this.pool = context.pool();
        this.bornInRepair = context.inFlight().repairing();
        this.block = started;
        this.staging = started.staging();
        context.inFlight().add(this);
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
            if (failure != null) {
                throw failure;
            }
            return true;
        }
        if (successor != null) {
            return pollSuccessor();
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
                    context.twinReceived(twin.commId(), twin.received(twinTag));
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
            throw failed(e);
        }
        if (again) {
            return false;
        }
        try {
            onComplete();
        } catch (RuntimeException e) {
            throw failed(e);
        } finally {
            finish();
        }
        return true;
    }

    /** As {@link #poll}: a wait's condition ({@code progress.DutyCycle}) is the operation itself. */
    @Override
    public final boolean getAsBoolean() {
        return poll();
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
                throw failed(e);
            }
            return;
        }
        try {
            onComplete();
        } catch (RuntimeException e) {
            throw failed(e);
        } finally {
            finish();
        }
    }

    private void finish() {
        complete = true;
        context.inFlight().remove(this);
        releaseBuffers();
        pool.release(block);
    }

    private boolean pollSuccessor() {
        if (!successor.poll()) {
            return false;
        }
        result(successor.resultSource, successor.resultTag, successor.resultBytes);
        cancelled = successor.cancelled;
        complete = true;
        return true;
    }

    /**
     * Given up with the communicator it was helping to create, when a failure
     * abandoned the creation: never reissued, and its memory never returned
     * (the native request may still write into it).
     */
    public final void abandon() {
        if (!complete && successor == null) {
            context.inFlight().remove(this);
            complete = true;
        }
    }

    /**
     * A repair replaced the native communicators this operation was started
     * on. Its native request may still write into its memory (a receive a
     * message in flight could still match), so that memory is never returned
     * to the pool; the operation goes on as {@link #reissue}'s replacement,
     * which polling this one polls from now on.
     */
    public final void abandonForRepair() {
        if (complete || successor != null || standsThroughRepair()) {
            return;
        }
        context.inFlight().remove(this);
        if (bornInRepair) {
            complete = true;
            return;
        }
        if (twinStep == TwinStep.FORWARDING) {
            // done, and its outcome is in the twin log: a live replica gets it from there
            completeInRepair();
            return;
        }
        NativeOp next = reissue();
        if (next == null) {
            completeInRepair();
        } else {
            next.bornInRepair = bornInRepair;
            successor = next;
        }
    }

    /**
     * An operation whose native part is done and whose outcome is on its way
     * to the replica counts as done before a repair's records are exchanged:
     * its message was consumed, its collective completed (the outcome is in
     * the twin log). Its memory is left alone: the forward may still read it.
     */
    final void settleIfForwarding() {
        if (complete || successor != null || twinStep != TwinStep.FORWARDING || standsThroughRepair()) {
            return;
        }
        context.inFlight().remove(this);
        completeInRepair();
    }

    /**
     * Completes it from inside a repair, its memory left alone. An error of its own (a receive that truncated)
     * is the program's, kept for its wait: thrown here it would end the repair.
     */
    private void completeInRepair() {
        complete = true;
        try {
            onComplete();
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    /** Keeps {@code e} as this operation's outcome (see {@link #failure}) and returns it. */
    private RuntimeException failed(RuntimeException e) {
        failure = e;
        return e;
    }

    /**
     * This operation over the repaired communicators, started afresh from
     * what it was asked to do, or null when it is already done as far as the
     * program can tell (a send: the message log resends it if needed).
     */
    protected abstract NativeOp reissue();

    /**
     * The communicator structure whose native communicators this operation
     * runs on, or null for one that every repair abandons (no communicator,
     * or one being created).
     */
    protected CommStructure structure() {
        return null;
    }

    /**
     * Whether the repair left this operation's communicators standing (no
     * copy of theirs failed): it carries on untouched, and its messages
     * arrive as if nothing happened.
     */
    private boolean standsThroughRepair() {
        CommStructure s = structure();
        return s != null && s.successor() == null;
    }

    /** The sequence number of the twin decision this operation forwards or awaits, or -1. */
    protected final int twinTag() {
        return twin == null ? -1 : twinTag;
    }

    /** What replaced this operation at a repair, or null. */
    protected final NativeOp successor() {
        return successor;
    }

    /** Whether it still waits for its twin's outcome. */
    protected final boolean followingTwin() {
        return twinStep == TwinStep.FOLLOWING;
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
        this.twin = link;
        this.twinTag = tag;
        MemorySegment target = into == null ? block.scratch().asSlice(0, 0) : into;
        link.irecv(target, tag, block.request());
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
        twin.forwarded(twinTag, data);
        twin.isend(data, twinTag, block.request());
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

    /**
     * The native request finished successfully: deliver results to the user. Nothing by default: an operation
     * whose outcome is its status alone (a send, a control message, a match) has nothing to deliver.
     */
    protected void onComplete() {
    }

    /**
     * Returns memory the operation holds besides its block, which goes back to the pool with it (the message
     * log keeps send payloads instead). Nothing by default.
     */
    protected void releaseBuffers() {
    }

    @Override
    void cancelForRollback() {
        cancel();
    }

    /** Requests cancellation of the native operation (receives only, in practice). */
    public void cancel() {
        if (!complete) {
            cancelRequested = true;
            Empi.cancel(block.request());
        }
    }
}

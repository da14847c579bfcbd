package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.TwinLink;

/**
 * A native nonblocking collective over staged data: whoever builds it stages
 * the inputs, starts the native call with {@link #requestSlot()}, and gives
 * the step that unpacks the outputs once the native request completes.
 */
public final class CollectiveOp extends NativeOp {

    /** Starts the native collective, writing its request into {@code request}. */
    @FunctionalInterface
    public interface Start {
        void start(MemorySegment request);
    }

    private final List<MemorySegment> staged = new ArrayList<>(4);
    private Runnable finish;

    public CollectiveOp(StagingPool pool) {
        super(pool);
    }

    /** Staging memory owned by this operation until it completes. */
    public MemorySegment stage(long bytes) {
        MemorySegment seg = pool.acquire(Math.max(bytes, 1));
        staged.add(seg);
        return seg;
    }

    public CollectiveOp start(Start start, Runnable finish) {
        this.finish = finish;
        start.start(requestSlot());
        return this;
    }

    /**
     * Starts a collective of the program on {@code comm}: the computational
     * copies run it natively; a replica instead receives its twin's packed
     * {@code output} (what {@code finish} unpacks), so both unpack the same
     * bytes — bitwise-identical results whatever the operation and however
     * many ranks have replicas.
     */
    public CollectiveOp start(CommStructure comm, MemorySegment output, Start start, Runnable finish) {
        this.finish = finish;
        TwinLink twin = comm.twin();
        if (twin == null) {
            start.start(requestSlot());
        } else if (twin.follows()) {
            followTwin(twin, twin.nextTag(), output);
        } else {
            forwardWhenDone(twin, twin.nextTag(), output);
            start.start(requestSlot());
        }
        return this;
    }

    /** For collectives with nothing to do natively (e.g. zero members involved). */
    public CollectiveOp completeNow(Runnable finish) {
        this.finish = finish;
        completeLocally();
        return this;
    }

    /** Survivors do not yet agree on and replay collectives cut short by a failure (DESIGN §9, step 6). */
    @Override
    protected NativeOp reissue() {
        throw new UnsupportedOperationException("a collective operation was in flight when a process failed; "
                + "replaying collectives is not implemented yet");
    }

    @Override
    protected void onComplete() {
        if (finish != null) {
            finish.run();
        }
    }

    @Override
    protected void releaseBuffers() {
        for (MemorySegment seg : staged) {
            pool.release(seg);
        }
        staged.clear();
    }
}

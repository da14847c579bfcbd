package org.fthp.replication.ops;

import org.fthp.replication.staging.StagingPool;

/** An operation that was complete when it was made (e.g. a communicator duplicated eagerly). */
public final class CompletedOp extends NativeOp {

    private CompletedOp(StagingPool pool) {
        super(pool);
    }

    public static CompletedOp create(StagingPool pool) {
        CompletedOp op = new CompletedOp(pool);
        op.completeLocally();
        return op;
    }

    @Override
    protected NativeOp reissue() {
        return null;
    }

    @Override
    protected void onComplete() {
    }

    @Override
    protected void releaseBuffers() {
    }
}

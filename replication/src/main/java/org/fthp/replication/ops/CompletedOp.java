package org.fthp.replication.ops;

/** An operation that was complete when it was made (e.g. a communicator duplicated eagerly). */
public final class CompletedOp extends NativeOp {

    /** Abandoned by a rollback, it changes nothing the program sees: nothing native. */
    @Override
    boolean onlyReadsProgramMemory() {
        return true;
    }

    private CompletedOp(OpContext context) {
        super(context);
    }

    public static CompletedOp create(OpContext context) {
        CompletedOp op = new CompletedOp(context);
        op.completeLocally();
        return op;
    }

    @Override
    protected NativeOp reissue() {
        return null;
    }
}

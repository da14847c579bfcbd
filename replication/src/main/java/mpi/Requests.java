package mpi;

import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.progress.IdleStrategy;

/** Helpers that turn completed internal operations into statuses and wait on several at once. */
final class Requests {

    private Requests() {}

    static Status status(NativeOp op) {
        return new Status(op.resultSource(), op.resultTag(), MPI.SUCCESS, op.cancelled(), op.resultBytes(),
                MPI.UNDEFINED);
    }

    static NativeOp completed() {
        return org.fthp.replication.ops.CompletedOp.create(Session.pool());
    }

    /** The operations of a send (one per copy fed) and one more, to progress together. */
    static NativeOp[] with(NativeOp[] ops, NativeOp more) {
        NativeOp[] all = java.util.Arrays.copyOf(ops, ops.length + 1);
        all[ops.length] = more;
        return all;
    }

    static void awaitAll(NativeOp... ops) {
        IdleStrategy idle = null;
        while (true) {
            boolean all = true;
            for (NativeOp op : ops) {
                all &= op.poll();
            }
            if (all) {
                return;
            }
            if (idle == null) {
                idle = new IdleStrategy();
                idle.reset();
            }
            Session.progress();
            idle.idle();
        }
    }
}

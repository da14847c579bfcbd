package mpi;

import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.runtime.Engine;

/** Helpers that turn completed internal operations into statuses and wait on several at once. */
final class Requests {

    private Requests() {}

    static Status status(NativeOp op) {
        return new Status(op.resultSource(), op.resultTag(), MPI.SUCCESS, op.cancelled(), op.resultBytes(),
                MPI.UNDEFINED);
    }

    static NativeOp completed() {
        return org.fthp.replication.ops.CompletedOp.create(Engine.get().ops());
    }

    static void awaitAll(NativeOp... ops) {
        Engine.get().awaitAll(ops);
    }

    /** A wait on requests ended (MPI_Wait and kin): the engine does what such a call owes after its wait. */
    static void waited() {
        Engine.get().pointToPoint().waitEnded();
    }

    /** A poll of the facade's that may fail with an MPIException. */
    @FunctionalInterface
    interface Poll {
        boolean done() throws MPIException;
    }

    /** Waits on the engine's duty cycle until {@code poll} says done; its MPIException reaches the caller. */
    static void await(Poll poll) throws MPIException {
        try {
            Engine.get().awaitRequests(() -> {
                try {
                    return poll.done();
                } catch (MPIException e) {
                    throw new UncheckedMpi(e);
                }
            });
        } catch (UncheckedMpi u) {
            throw u.getCause();
        }
    }
}

package org.fthp.checkpoint.api;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.replication.failure.FailureWatch;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.runtime.Engine;

/**
 * A checkpoint taken while a replica is due to be restored from a spare waits for its epoch's commit: the primary
 * then rolls the job back in place to that epoch with the spare as the rank's replica, and the rollback, heard
 * before the commit, ends the wait by unwinding to the resilient body, so no work done after the checkpoint is lost.
 * The wait takes turns of the engine's duty (acknowledgements, repairs) and ends without a rollback if the commit
 * comes alone (the restoration could not start), if the primary says the restoration is no longer due, if a failure
 * arrives (the epoch may then never commit), or at {@link #BOUND_NANOS}.
 */
final class RestorationWait {

    /** Far above a commit's time (two in-memory copies of each piece), short against a job's run. */
    static final long BOUND_NANOS = 30_000_000_000L;

    private RestorationWait() {}

    /**
     * Waits as described for {@code epoch}, then throws the rollback if the coordinators announced one; with
     * {@code trace}, says how long it waited on stderr.
     */
    static void awaitCommit(Engine engine, CoordinatorClient client, long epoch, boolean trace) {
        FailureWatch watch = engine.failureWatch();
        long failuresAtStart = watch == null ? 0 : watch.epoch();
        long start = System.nanoTime();
        long deadline = start + BOUND_NANOS;
        engine.await(() -> client.lastCommittedEpoch() >= epoch || !client.restorationDue()
                || watch != null && watch.epoch() != failuresAtStart || System.nanoTime() - deadline > 0);
        if (trace) {
            RuntimeMessages.say("fthp-checkpoint[" + engine.logicalRank() + "] epoch " + epoch + ": waited "
                    + (System.nanoTime() - start) / 1000 + " us for the commit a replica's restoration is due at");
        }
        engine.rollbackPoint();
    }
}

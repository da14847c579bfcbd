package org.fthp.coordinator.client;

import java.util.List;

import org.fthp.coordinator.event.FailedProcess;

/**
 * What the replication layer hears from its coordinator.
 *
 * <p>Both methods are called on the client's Netty event-loop thread, one call at a time and in the order the
 * coordinator sent them. They must return quickly and must not block on MPI: hand the event to the repair
 * thread instead. An exception thrown here is logged and otherwise ignored.
 */
public interface FailureListener {
    /**
     * A new epoch. {@code failed} is the complete job-wide failed set so far (not a delta); epochs only increase,
     * and one already delivered is never delivered again.
     */
    void onFailureSet(long epoch, List<FailedProcess> failed);

    /**
     * Logical rank {@code lostRank} has no copy left, or ({@code lostRank} is
     * {@link org.fthp.coordinator.wire.Message.JobAbort#NO_RANK}) a process died before it registered; the job
     * cannot continue. Delivered at most once.
     */
    void onJobAbort(String reason, int lostRank);

    /**
     * The program on a copy of {@code rank} ended the job with {@code exitCode} (see {@code
     * Message.ProgramEnded}); delivered at most once, instead of {@link #onJobAbort}. By default the same as an abort.
     */
    default void onProgramEnded(String reason, int rank, int exitCode) {
        onJobAbort(reason, rank);
    }

    /**
     * The job rolls back in place ({@code Message.Rollback}): a survivor unwinds to its resilient body, the spare it
     * names takes the lost rank.
     */
    default void onRollback(org.fthp.coordinator.wire.Message.Rollback rollback) {
    }

    /** A spare's only news while it waits: the job's program has ended everywhere, so the spare finalizes too. */
    default void onSparesReleased() {
    }

    /**
     * A spare's other news while it waits: the largest checkpoint piece its node holds grew to {@code pieceBytes}
     * (the state it would allocate if it took a rank).
     */
    default void onSpareWarm(long pieceBytes) {
    }
}

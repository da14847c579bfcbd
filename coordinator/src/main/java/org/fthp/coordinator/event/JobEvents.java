package org.fthp.coordinator.event;

import java.util.List;

/**
 * What the primary coordinator tells the world outside the coordinator tree:
 * the event log, and the launcher that must end a job whose rank is lost.
 * Called on the primary's I/O thread, in epoch order.
 */
public interface JobEvents {

    /** The {@code lostRank} of an abort caused by a process that died before it had a rank to lose. */
    int NO_RANK = -1;

    JobEvents NONE = new JobEvents() {
        @Override
        public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) {
        }

        @Override
        public void jobAborted(String reason, int lostRank) {
        }
    };

    /** Processes first known dead in this epoch. */
    void failuresDetected(long epoch, List<FailedProcess> newlyFailed);

    /**
     * Every rank's piece of {@code epoch} is held in memory (by a node and its partner): the epoch is committed.
     * {@code costSeconds} is the slowest rank's reported cost of writing its piece (NaN if not every rank reported).
     */
    default void checkpointCommitted(long epoch, long bytes, double costSeconds) {
    }

    /** The checkpoint timer's interval changed ({@code basis}: fixed, or how Daly's interval was found). */
    default void checkpointInterval(double seconds, String basis) {
    }

    /** Epoch {@code epoch}'s manifest is on disk: it survives the coordinators. */
    default void checkpointDurable(long epoch, long bytes) {
    }

    /** A node's piece memory after a commit (every node, for the launcher's summary). */
    default void checkpointMemory(int node, long heldBytes, long peakBytes, long limitBytes) {
    }

    /**
     * The program on a copy of {@code rank} ended the job itself with {@code exitCode} (an uncaught exception,
     * System.exit or a return from main before MPI_Finalize, MPI_Abort, ERRORS_ARE_FATAL): the job ends with that
     * code, nothing is repaired.
     */
    default void programEnded(String reason, int rank, int exitCode) {
        jobAborted(reason, rank);
    }

    /** Child coordinator {@code node} was lost (its host failed): {@code failed} are failed with it, in one batch. */
    default void hostLost(int node, List<FailedProcess> failed) {
    }

    /**
     * After a host was lost, every process has finished or failed: the job is over, though the native launcher may
     * still wait for the lost host's processes.
     */
    default void processesEnded() {
    }

    /** Every copy of {@code lostRank} is dead (or a process died unregistered: {@link #NO_RANK}): the job cannot go on. */
    void jobAborted(String reason, int lostRank);

    /**
     * Logical rank {@code rank} lost every copy and the job rolled back in place: spare {@code spare} took it, every
     * process resumed from {@code epoch}, all back in their resilient bodies {@code seconds} after the decision.
     */
    default void jobRolledBack(long epoch, int rank, int spare, double seconds) {
    }

    /**
     * Logical rank {@code rank} had lost one of its copies and spare {@code spare} became its replica: the job rolled
     * back in place to {@code epoch}, just committed, every process back in its resilient body {@code seconds} after
     * the decision.
     */
    default void replicaRestored(long epoch, int rank, int spare, double seconds) {
    }

    /**
     * The twins of a replicated rank differ ({@code reason}: {@code silent data corruption detected: rank=R epoch=E
     * what=messages|state ...}): the job rolls back in place ({@code notInPlace} null), or it cannot for the reason
     * {@code notInPlace} says and ends with the copy's reason instead (the {@link #programEnded} that follows).
     */
    default void sdcDetected(String reason, String notInPlace) {
    }

    /**
     * After the twins of {@code rank} differed, the job rolled back in place to {@code epoch}, every process back in
     * its resilient body {@code seconds} after the decision.
     */
    default void sdcRolledBack(long epoch, int rank, double seconds) {
    }

    /** Spare {@code spare} (native rank) died while it waited: the job goes on with {@code sparesLeft}. */
    default void spareLost(int spare, int sparesLeft) {
    }
}

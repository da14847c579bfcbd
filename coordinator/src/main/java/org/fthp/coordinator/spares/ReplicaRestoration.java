package org.fthp.coordinator.spares;

import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.Message;

/**
 * The primary's restoration of lost replicas from spares (pure logic, called under the node's lock, beside the
 * {@link RollbackPlanner} whose state it reads and whose rollbacks it starts). A rank the user asked a replica for
 * that has a live copy but no live replica (its replica died, or its computational copy died and the replica was
 * promoted) makes a restoration due when a spare is ready, no rollback is under way and every live process is
 * inside its resilient body; the processes are told (RESTORATION_DUE), so their next checkpoint waits for its
 * commit; at that commit the job rolls back in place to the epoch just committed (which loses nothing) with the
 * spare as the rank's replica, and the replication degree is back to what the user asked for.
 */
public final class ReplicaRestoration {

    private final boolean enabled;
    /** What the processes were last told. */
    private boolean dueSaid;
    /**
     * The highest epoch seen when the processes were told: a checkpoint taken before they knew did not wait for its
     * commit, so the restoration waits for a later one.
     */
    private long afterEpoch = Long.MAX_VALUE;

    /** {@code enabled}: fthp-run's {@code --restore-replicas} (on by default). */
    public ReplicaRestoration(boolean enabled) {
        this.enabled = enabled;
    }

    /** Whether a restoration is due now. */
    private boolean due(RollbackPlanner planner, Set<Integer> dead, JobShape shape) {
        return enabled && planner.hasReadySpare() && planner.underWay() == null
                && planner.layoutNow(shape).firstWithoutReplica(dead, shape) >= 0 && planner.notInBody(dead) == null;
    }

    /**
     * Whether a restoration is due changed since the processes were last told: the message that tells them, else
     * null. {@code failed}: the job-wide failed set; {@code highestEpochSeen}: the highest checkpoint epoch seen.
     */
    public Message.RestorationDue changed(RollbackPlanner planner, List<FailedProcess> failed, JobShape shape,
                                          long highestEpochSeen) {
        boolean due = due(planner, RollbackPlanner.nativeRanksOf(failed), shape);
        if (due == dueSaid) {
            return null;
        }
        dueSaid = due;
        afterEpoch = due ? highestEpochSeen : Long.MAX_VALUE;
        return new Message.RestorationDue(due);
    }

    /**
     * Checkpoint {@code epoch} commits (before any process hears it): the rollback that restores a replica from a
     * spare at it, if one is due and the processes knew it before the checkpoint; else null. {@code failureEpoch}:
     * the failure set the rollback reflects.
     */
    public Message.Rollback atCommit(long epoch, RollbackPlanner planner, List<FailedProcess> failed, JobShape shape,
                                     long failureEpoch, long highestEpochSeen, long nowNanos) {
        if (!dueSaid || epoch <= afterEpoch) {
            return null;
        }
        Set<Integer> dead = RollbackPlanner.nativeRanksOf(failed);
        if (!due(planner, dead, shape)) {
            return null;
        }
        int rank = planner.layoutNow(shape).firstWithoutReplica(dead, shape);
        int deadCopy = planner.deadCopyOf(rank, shape, dead);
        if (deadCopy < 0) {
            return null;
        }
        return planner.begin(rank, deadCopy, dead, shape, epoch, Math.max(epoch, highestEpochSeen) + 2, failureEpoch,
                nowNanos);
    }

    /** Whether the processes were last told a restoration is due (a process that registers later hears it too). */
    public boolean dueSaid() {
        return dueSaid;
    }
}

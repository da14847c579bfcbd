package org.fthp.coordinator.spares;

import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.Message;

/**
 * The primary's answer when the twins of a replicated rank differ (silent data corruption; pure logic, called under
 * the node's lock, beside the {@link RollbackPlanner} whose state it reads and whose rollbacks it starts). Two copies
 * cannot say which of them is wrong, but every committed epoch was verified by every rank's twins, so the job rolls
 * back in place to the last one: no process is lost, so no spare is needed, and the layout stays as the repairs
 * left it. That needs a committed epoch, every live process inside its resilient body of the current generation and
 * no rollback under way; otherwise the job ends with the copy's reason (exit code {@link #EXIT_SDC}), and fthp-run
 * relaunches it from that epoch or ends it, as without a rollback in place.
 *
 * <p>At a checkpoint both twins find the difference and report it; between checkpoints only the replica does. The
 * report that starts a rollback makes the next generation, so the twin's report of the same generation, or any
 * report of an earlier one, is already answered.
 */
public final class SdcRollback {

    /** The exit code of a job a difference between twins ended (the ranks' {@code TwinComparison.EXIT_SDC}). */
    public static final int EXIT_SDC = 6;

    /** The report whose rollback is the one under way (until it completes), or null. */
    private Message.SdcDetected started;

    /**
     * A copy reports that its twin differs: a rollback in place, a relaunch for the reason given (the job ends with
     * the copy's reason), or null when the report is already answered. {@code failed}: the job-wide failed set;
     * {@code committed}: the last committed epoch; {@code highestEpochSeen}: the highest checkpoint epoch seen;
     * {@code failureEpoch}: the failure set the rollback reflects.
     */
    public RollbackPlanner.Decision decide(Message.SdcDetected report, RollbackPlanner planner,
                                           List<FailedProcess> failed, JobShape shape, long committed,
                                           long highestEpochSeen, long failureEpoch, long nowNanos) {
        if (report.generation() < planner.generation()) {
            // its twin's report started the rollback, or another rollback under way goes back to a verified epoch
            return null;
        }
        if (planner.underWay() != null) {
            return new RollbackPlanner.Relaunch("the rollback of generation " + planner.generation()
                    + " is still under way");
        }
        if (committed < 1) {
            return new RollbackPlanner.Relaunch("no checkpoint committed yet");
        }
        Set<Integer> dead = RollbackPlanner.nativeRanksOf(failed);
        String outside = planner.notInBody(dead);
        if (outside != null) {
            return new RollbackPlanner.Relaunch(outside);
        }
        started = report;
        return new RollbackPlanner.RollBack(planner.beginInPlace(report.logicalRank(), dead, shape, committed,
                Math.max(committed, highestEpochSeen) + 2, failureEpoch, nowNanos));
    }

    /**
     * The report whose rollback {@code r} is ({@code r} after a difference between twins), else null; the reason a
     * rollback that does not complete ends the job with.
     */
    public Message.SdcDetected reportOf(Message.Rollback r) {
        return r.afterSdc() && started != null && r.generation() == started.generation() + 1 ? started : null;
    }
}

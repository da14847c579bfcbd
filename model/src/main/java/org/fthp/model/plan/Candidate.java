package org.fthp.model.plan;

import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.strategy.Setup;

/**
 * One way to run the job the planner weighed: its setup, what the simulator
 * expects of it, and which rule set its checkpoint interval ("Daly" from the
 * MTTI, or "restored" when replicas come back at each commit).
 */
public record Candidate(Setup setup, double degree, MonteCarlo.Estimate estimate, String intervalRule) {

    public double efficiency() {
        return estimate.efficiencyExpected();
    }

    /** What the ranking uses: efficiency counting only runs whose result is right. */
    public double score() {
        return estimate.correctEfficiency();
    }

    public double silentlyWrongShare() {
        return estimate.silentlyWrongShare();
    }

    /** "checkpoint/restart", "replication of every rank", "replication of 50 % of ranks + checkpoints". */
    public String label() {
        String who = degree >= 1 ? "every rank" : String.format(java.util.Locale.ROOT, "%.0f %% of ranks", 100 * degree);
        return switch (setup.strategy()) {
            case CHECKPOINT_RESTART -> "checkpoint/restart";
            case REPLICATION -> "replication of " + who;
            case REPLICATION_CHECKPOINT -> "replication of " + who + " + checkpoints";
        };
    }
}

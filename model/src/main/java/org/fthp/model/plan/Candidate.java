package org.fthp.model.plan;

import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.strategy.Setup;

/** One way to run the job the planner weighed: its setup and what the simulator expects of it. */
public record Candidate(Setup setup, double degree, MonteCarlo.Estimate estimate) {

    public double efficiency() {
        return estimate.efficiencyExpected();
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

package org.fthp.model.efficiency;

import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;

/**
 * The closed-form estimate of a setup's efficiency: interruptions taken as
 * exponential with the setup's MTTI, the exact formula of
 * {@link CheckpointRestart#expectedMakespan} on work stretched by replication's
 * overhead and by one repair per system MTBF. Exact for checkpoint/restart under
 * exponential failures; an approximation otherwise (a replicated job ages: its
 * pairs lose copies between restarts), which the simulator does not make.
 */
public final class ExpectedEfficiency {

    private ExpectedEfficiency() {}

    public static double of(Setup setup, Machine machine, double workSeconds) {
        double stretch = setup.forwardStretch() * (1 + setup.repairSeconds() / machine.systemMtbfSeconds());
        double makespan = CheckpointRestart.expectedMakespan(workSeconds * stretch, setup.intervalSeconds() * stretch,
                setup.checkpointSeconds(), setup.restartSeconds(), setup.mttiSeconds());
        return setup.workingShare() * workSeconds / makespan;
    }
}

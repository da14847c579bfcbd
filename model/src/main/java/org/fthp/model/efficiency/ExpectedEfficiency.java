package org.fthp.model.efficiency;

import org.fthp.model.RestoredReplication;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;

/**
 * The closed-form estimate of a setup's efficiency, on work stretched by
 * replication's overhead and by one repair per system MTBF.
 *
 * <ul>
 * <li>Replicas restored from spares at each commit: every period starts with
 * every replica, so {@link RestoredReplication#expectedMakespan} is exact under
 * exponential failures (spares assumed never to run out; the simulator lets them).
 * <li>Otherwise interruptions are taken as exponential with the setup's MTTI
 * and {@link CheckpointRestart#expectedMakespan} applies, a restart costing the
 * in-place rollback when the job keeps spares. Exact for checkpoint/restart under
 * exponential failures; an approximation otherwise (a replicated job ages: its
 * pairs lose copies between restarts), which the simulator does not make.
 * </ul>
 */
public final class ExpectedEfficiency {

    private ExpectedEfficiency() {}

    public static double of(Setup setup, Machine machine, double workSeconds) {
        double stretch = setup.forwardStretch() * (1 + setup.repairSeconds() / machine.systemMtbfSeconds());
        double makespan;
        if (setup.restoresReplicas()) {
            makespan = setup.restoredModel(machine).expectedMakespan(workSeconds * stretch,
                    setup.intervalSeconds() * stretch, setup.checkpointSeconds(), setup.restartSeconds(),
                    setup.recovery().rollbackSeconds());
        } else {
            double restart = setup.strategy().checkpoints() && setup.recovery().hasSpares()
                    ? setup.recovery().rollbackSeconds() : setup.restartSeconds();
            makespan = CheckpointRestart.expectedMakespan(workSeconds * stretch, setup.intervalSeconds() * stretch,
                    setup.checkpointSeconds(), restart, setup.mttiSeconds());
        }
        return setup.workingShare() * workSeconds / makespan;
    }
}

package org.fthp.coordinator.spares;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.Message.ProcessState.State;

/** The jobs the planner tests start from, and the reports they feed it. */
final class PlannedJobs {

    private PlannedJobs() {}

    static FailedProcess dead(int nativeRank, int logical, Role role) {
        return new FailedProcess(1000 + nativeRank, nativeRank, logical, role, "test");
    }

    static void report(RollbackPlanner p, int nativeRank, State state, int generation) {
        p.stateReported(new Message.ProcessState(nativeRank, state, generation));
    }

    /**
     * 2 ranks + 2 replicas (natives 0, 1 and 2, 3), the given spares ready, every process in its body of
     * generation 0.
     */
    static RollbackPlanner replicatedJob(int... spares) {
        RollbackPlanner p = new RollbackPlanner(4);
        for (int spare : spares) {
            report(p, spare, State.SPARE_READY, 0);
        }
        for (int n = 0; n < 4; n++) {
            report(p, n, State.IN_BODY, 0);
        }
        return p;
    }
}

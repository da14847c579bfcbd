package org.fthp.coordinator.node;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;

/** A process registered with this node, as it described itself in REGISTER_PROCESS. */
record LocalProcess(long pid, int nativeRank, int logicalRank, Role role) {
    FailedProcess failed(String cause) {
        return new FailedProcess(pid, nativeRank, logicalRank, role, cause);
    }

    @Override
    public String toString() {
        return "pid " + pid + " native " + nativeRank + " logical " + logicalRank + " " + role;
    }
}

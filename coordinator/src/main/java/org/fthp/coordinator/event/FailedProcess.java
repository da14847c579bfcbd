package org.fthp.coordinator.event;

import java.util.Objects;

/**
 * One process the coordinators consider dead.
 *
 * <p>The native rank is the job-wide identity (it is unique across hosts, a pid is not), so sets of failures are
 * keyed by it. The pid is kept for the event log and for matching reports from the launcher's proxy library.
 *
 * @param pid         operating-system pid on the process's own host
 * @param nativeRank  rank in the native MPI_COMM_WORLD
 * @param logicalRank rank the application sees
 * @param role        computational copy or replica
 * @param cause       why it is considered dead, e.g. "connection lost" (informational only)
 */
public record FailedProcess(long pid, int nativeRank, int logicalRank, Role role, String cause) {
    public FailedProcess {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(cause, "cause");
        if (nativeRank < 0 || logicalRank < 0) {
            throw new IllegalArgumentException("ranks must be >= 0: native " + nativeRank + ", logical " + logicalRank);
        }
    }
}

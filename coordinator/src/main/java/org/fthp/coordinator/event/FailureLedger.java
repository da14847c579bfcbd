package org.fthp.coordinator.event;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The primary coordinator's job-wide failed set and epoch counter. Each batch that adds at least one process not
 * seen before advances the epoch by exactly one; re-reports (the proxy and the lost connection both notice the same
 * death) change nothing. Not thread-safe: the owner serialises access.
 */
public final class FailureLedger {
    /** Keyed by native rank, in order of first report, so snapshots list failures chronologically. */
    private final Map<Integer, FailedProcess> failedByNativeRank = new LinkedHashMap<>();
    private long epoch;

    /** Records a batch; returns the new snapshot if the set grew, empty if every process was already known. */
    public Optional<FailureSnapshot> record(Collection<FailedProcess> batch) {
        boolean grew = false;
        for (FailedProcess p : batch) {
            grew |= failedByNativeRank.putIfAbsent(p.nativeRank(), p) == null;
        }
        if (!grew) {
            return Optional.empty();
        }
        epoch++;
        return Optional.of(current());
    }

    public FailureSnapshot current() {
        return new FailureSnapshot(epoch, new ArrayList<>(failedByNativeRank.values()));
    }

    public long epoch() {
        return epoch;
    }
}

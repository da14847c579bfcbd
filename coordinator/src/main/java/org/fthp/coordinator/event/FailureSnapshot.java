package org.fthp.coordinator.event;

import java.util.List;

/**
 * The complete job-wide failed set as of one epoch. Always the whole set, never a delta, so a receiver that
 * missed an epoch is still fully up to date with the next one.
 */
public record FailureSnapshot(long epoch, List<FailedProcess> failed) {
    public FailureSnapshot {
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0: " + epoch);
        }
        failed = List.copyOf(failed);
    }
}

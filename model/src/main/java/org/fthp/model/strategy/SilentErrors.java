package org.fthp.model.strategy;

/**
 * Silent data corruption: a process computes a wrong value and carries on.
 * Corruptions strike every computing process (ranks and replicas; not idle
 * spares) as a Poisson process of the given rate. A replicated rank whose two
 * copies compare (fthp-run's twin comparison, on by default) detects one and
 * the job rolls back as after a failure; a corruption of an unreplicated rank,
 * of a rank whose replica is dead, or of any copy when comparison is off goes
 * unnoticed and the run ends silently wrong, unless a rollback to an earlier
 * checkpoint throws it away.
 *
 * @param ratePerProcessSecond corruptions per process per second
 * @param twinComparison       replicated ranks compare their copies
 */
public record SilentErrors(double ratePerProcessSecond, boolean twinComparison) {

    /** No silent corruption. */
    public static final SilentErrors NONE = new SilentErrors(0, true);

    public SilentErrors {
        if (!(ratePerProcessSecond >= 0) || Double.isInfinite(ratePerProcessSecond)) {
            throw new IllegalArgumentException("SDC rate must be a finite number >= 0, not " + ratePerProcessSecond);
        }
    }

    /** A rate given per process per hour, as users quote it. */
    public static SilentErrors perProcessHour(double rate, boolean twinComparison) {
        return new SilentErrors(rate / 3600, twinComparison);
    }

    public double ratePerProcessHour() {
        return ratePerProcessSecond * 3600;
    }

    public boolean any() {
        return ratePerProcessSecond > 0;
    }

    /** Corruptions a replicated rank's twins catch, per process per second (0 without comparison). */
    public double detectedRatePerCopy() {
        return twinComparison ? ratePerProcessSecond : 0;
    }
}

package org.fthp.launcher.inject;

import java.util.SplittableRandom;

/**
 * Times between failures drawn from a Weibull distribution with the given
 * mean (the MTBF) and shape (0.7 as measured on real systems: failures
 * cluster). Scale = MTBF / Γ(1 + 1/shape), so the mean is the MTBF. Seeded:
 * the same seed gives the same sequence, so a run can be repeated.
 */
public final class WeibullSampler {

    private final double shape;
    private final double scale;
    private final SplittableRandom random;

    public WeibullSampler(double mtbfSeconds, double shape, long seed) {
        if (!(mtbfSeconds > 0) || !(shape > 0)) {
            throw new IllegalArgumentException("MTBF and shape must be positive: " + mtbfSeconds + ", " + shape);
        }
        this.shape = shape;
        this.scale = mtbfSeconds / Gamma.of(1 + 1 / shape);
        this.random = new SplittableRandom(seed);
    }

    public double scale() {
        return scale;
    }

    /** Seconds until the next failure: scale · (−ln U)^(1/shape). */
    public double nextInterval() {
        double u = 1 - random.nextDouble();   // in (0, 1]: ln is finite
        return scale * Math.pow(-Math.log(u), 1 / shape);
    }

    /** A uniformly chosen index below {@code bound}, from the same seeded stream (which process to kill). */
    public int pick(int bound) {
        return random.nextInt(bound);
    }
}

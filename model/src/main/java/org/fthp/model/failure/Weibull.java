package org.fthp.model.failure;

import java.util.SplittableRandom;
import org.fthp.model.math.Gamma;

/**
 * A Weibull distribution given by its mean and shape, as failure studies quote
 * it (shape 0.7 on real systems: failures cluster; shape 1 is exponential).
 * Scale = mean / Γ(1 + 1/shape).
 */
public record Weibull(double mean, double shape) {

    public Weibull {
        if (!(mean > 0) || Double.isInfinite(mean)) {
            throw new IllegalArgumentException("Weibull mean must be a finite number > 0, not " + mean);
        }
        if (!(shape > 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("Weibull shape must be a finite number > 0, not " + shape);
        }
    }

    public double scale() {
        return mean / Gamma.of(1 + 1 / shape);
    }

    /** One draw by inversion: scale · (−ln U)^(1/shape), U in (0, 1]. */
    public double sample(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        return scale() * Math.pow(-Math.log(u), 1 / shape);
    }
}

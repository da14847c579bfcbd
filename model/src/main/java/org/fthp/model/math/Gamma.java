package org.fthp.model.math;

/**
 * The gamma function, needed to turn a Weibull mean into its scale
 * (scale = mean / Γ(1 + 1/shape)). Lanczos approximation with g = 7 and nine
 * coefficients: about 15 significant digits for the positive arguments used here.
 */
public final class Gamma {

    private static final double G = 7;
    private static final double[] COEFFICIENTS = {
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
        -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
        1.5056327351493116e-7
    };

    private Gamma() {}

    /** Γ(x) for x &gt; 0. */
    public static double of(double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException("Gamma is defined here for finite x > 0, not " + x);
        }
        if (x < 0.5) {
            // reflection: Γ(x) Γ(1 − x) = π / sin(πx), the series is accurate for arguments ≥ 0.5
            return Math.PI / (Math.sin(Math.PI * x) * of(1 - x));
        }
        double z = x - 1;
        double sum = COEFFICIENTS[0];
        for (int i = 1; i < COEFFICIENTS.length; i++) {
            sum += COEFFICIENTS[i] / (z + i);
        }
        double t = z + G + 0.5;
        return Math.sqrt(2 * Math.PI) * Math.pow(t, z + 0.5) * Math.exp(-t) * sum;
    }
}

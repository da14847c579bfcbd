package org.fthp.model.math;

import java.util.function.DoubleUnaryOperator;

/**
 * Integrals of smooth functions by Gauss–Legendre quadrature (32 nodes per
 * piece). {@link #overHalfLine} integrates a decreasing, non-negative function
 * (a survival function) over [0, ∞) on pieces that double in width from a tiny
 * first one, so a function that falls on a scale of 10⁻⁹ of another's is
 * integrated as accurately, and a singular derivative at 0 (Weibull shapes below
 * 1) costs nothing: the first piece contributes almost nothing.
 */
public final class Quadrature {

    private static final int NODES = 32;
    private static final double[] X = new double[NODES];   // nodes on [-1, 1]
    private static final double[] W = new double[NODES];   // their weights

    static {
        // Newton's method on P_n from Chebyshev starting points; P_n by the three-term recurrence
        for (int i = 0; i < NODES; i++) {
            double x = Math.cos(Math.PI * (i + 0.75) / (NODES + 0.5));
            double derivative = 0;
            for (int iteration = 0; iteration < 100; iteration++) {
                double p0 = 1;
                double p1 = x;
                for (int k = 2; k <= NODES; k++) {
                    double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                derivative = NODES * (x * p1 - p0) / (x * x - 1);
                double step = p1 / derivative;
                x -= step;
                if (Math.abs(step) < 1e-16) {
                    break;
                }
            }
            X[i] = x;
            W[i] = 2 / ((1 - x * x) * derivative * derivative);
        }
    }

    private Quadrature() {}

    /** ∫ f over [a, b] with one 32-node Gauss–Legendre rule. */
    public static double over(DoubleUnaryOperator f, double a, double b) {
        double half = (b - a) / 2;
        double middle = (a + b) / 2;
        double sum = 0;
        for (int i = 0; i < NODES; i++) {
            sum += W[i] * f.applyAsDouble(middle + half * X[i]);
        }
        return sum * half;
    }

    /**
     * ∫ f over [0, ∞) for a non-negative f that decreases to 0 past its bulk.
     * {@code scale} is where f has surely fallen off (an upper estimate is fine);
     * the pieces start 10⁻¹⁸ of it wide and double until a piece adds less than
     * 10⁻¹⁶ of the total and f is negligible at its end.
     */
    public static double overHalfLine(DoubleUnaryOperator f, double scale) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("scale must be finite and > 0, not " + scale);
        }
        double a = 0;
        double b = scale * 1e-18;
        double total = 0;
        for (int piece = 0; piece < 2000; piece++) {
            double part = over(f, a, b);
            total += part;
            if (b > scale && part <= 1e-16 * total && f.applyAsDouble(b) * b <= 1e-16 * total) {
                return total;
            }
            a = b;
            b *= 2;
        }
        throw new ArithmeticException("integral over [0, inf) did not converge (scale " + scale + ")");
    }
}

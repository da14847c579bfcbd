package org.fthp.launcher.inject;

/** The gamma function, by the Lanczos approximation (g = 7, 9 terms): about 15 significant digits. */
public final class Gamma {

    private static final double[] LANCZOS = {
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
        -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
        1.5056327351493116e-7
    };

    private Gamma() {}

    public static double of(double x) {
        if (x < 0.5) {
            return Math.PI / (Math.sin(Math.PI * x) * of(1 - x));   // reflection
        }
        double z = x - 1;
        double a = LANCZOS[0];
        double t = z + 7.5;
        for (int i = 1; i < LANCZOS.length; i++) {
            a += LANCZOS[i] / (z + i);
        }
        return Math.sqrt(2 * Math.PI) * Math.pow(t, z + 0.5) * Math.exp(-t) * a;
    }
}

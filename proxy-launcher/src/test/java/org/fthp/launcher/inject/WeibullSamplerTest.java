package org.fthp.launcher.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class WeibullSamplerTest {

    @Test
    void gammaMatchesKnownValues() {
        assertEquals(1.0, Gamma.of(1), 1e-13);
        assertEquals(24.0, Gamma.of(5), 1e-11);
        assertEquals(Math.sqrt(Math.PI), Gamma.of(0.5), 1e-13);
        assertEquals(0.886226925452758, Gamma.of(1.5), 1e-13);
        assertEquals(1.329340388179137, Gamma.of(2.5), 1e-13);
        assertEquals(Math.PI / Math.sin(Math.PI * 0.3), Gamma.of(0.3) * Gamma.of(0.7), 1e-12);   // reflection
    }

    @Test
    void meanIsTheMtbfAndTheShapeShowsInTheMedian() {
        double mtbf = 30;
        double shape = 0.7;
        WeibullSampler s = new WeibullSampler(mtbf, shape, 42);
        int n = 400_000;
        double[] x = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            x[i] = s.nextInterval();
            sum += x[i];
        }
        assertEquals(mtbf, sum / n, mtbf * 0.01, "sample mean within 1 %");
        Arrays.sort(x);
        // Weibull median = scale * (ln 2)^(1/shape): far below the mean for shape < 1 (failures cluster)
        double median = s.scale() * Math.pow(Math.log(2), 1 / shape);
        assertEquals(median, x[n / 2], median * 0.02, "sample median within 2 %");
    }

    @Test
    void theSameSeedRepeatsTheSameFailures() {
        WeibullSampler a = new WeibullSampler(10, 0.7, 7);
        WeibullSampler b = new WeibullSampler(10, 0.7, 7);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.nextInterval(), b.nextInterval());
            assertEquals(a.pick(16), b.pick(16));
        }
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new WeibullSampler(0, 0.7, 1));
        assertThrows(IllegalArgumentException.class, () -> new WeibullSampler(10, -1, 1));
    }
}

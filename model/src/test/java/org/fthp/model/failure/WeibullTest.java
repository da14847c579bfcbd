package org.fthp.model.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.fthp.model.math.Gamma;
import org.junit.jupiter.api.Test;

class WeibullTest {

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
        Weibull w = new Weibull(mtbf, shape);
        SplittableRandom random = new SplittableRandom(42);
        int n = 400_000;
        double[] x = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            x[i] = w.sample(random);
            sum += x[i];
        }
        assertEquals(mtbf, sum / n, mtbf * 0.01, "sample mean within 1 %");
        Arrays.sort(x);
        // Weibull median = scale * (ln 2)^(1/shape): far below the mean for shape < 1 (failures cluster)
        double median = w.scale() * Math.pow(Math.log(2), 1 / shape);
        assertEquals(median, x[n / 2], median * 0.02, "sample median within 2 %");
    }

    @Test
    void theSameSeedRepeatsTheSameFailures() {
        Weibull w = new Weibull(10, 0.7);
        SplittableRandom a = new SplittableRandom(7);
        SplittableRandom b = new SplittableRandom(7);
        for (int i = 0; i < 100; i++) {
            assertEquals(w.sample(a), w.sample(b));
            assertEquals(a.nextInt(16), b.nextInt(16));
        }
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new Weibull(0, 0.7));
        assertThrows(IllegalArgumentException.class, () -> new Weibull(10, -1));
        assertThrows(IllegalArgumentException.class, () -> Gamma.of(0));
    }
}

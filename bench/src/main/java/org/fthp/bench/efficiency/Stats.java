package org.fthp.bench.efficiency;

import java.util.Collection;

/** Median, min and max of a few measured values (NaN for none). */
record Stats(double median, double min, double max, int count) {

    static Stats of(Collection<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Stats(median, v[0], v[n - 1], n);
    }
}

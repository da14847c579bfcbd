package org.fthp.apps.cloverleaf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the full-precision summaries written with --summary-file: step, time, then seven values. */
final class SummaryFile {

    private SummaryFile() {}

    static List<double[]> read(Path p) throws IOException {
        List<double[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(p)) {
            String[] w = line.trim().split(" +");
            double[] row = new double[w.length];
            for (int i = 0; i < w.length; i++) {
                row[i] = Double.parseDouble(w[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    /** Largest |a-b|/max(|a|,|b|) over matching entries (steps must match exactly). */
    static double maxRelativeDifference(List<double[]> a, List<double[]> b) {
        if (a.size() != b.size()) {
            throw new AssertionError("different number of summaries: " + a.size() + " and " + b.size());
        }
        double max = 0.0;
        for (int r = 0; r < a.size(); r++) {
            if (a.get(r)[0] != b.get(r)[0]) {
                throw new AssertionError("summary " + r + " is at step " + a.get(r)[0] + " and " + b.get(r)[0]);
            }
            for (int i = 1; i < a.get(r).length; i++) {
                double x = a.get(r)[i];
                double y = b.get(r)[i];
                double scale = Math.max(Math.abs(x), Math.abs(y));
                if (scale > 0) {
                    max = Math.max(max, Math.abs(x - y) / scale);
                }
            }
        }
        return max;
    }
}

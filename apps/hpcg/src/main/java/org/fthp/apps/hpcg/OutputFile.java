package org.fthp.apps.hpcg;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference's report layout (OutputFile): a title line, {@code version=...}, then one
 * {@code key=value} line per entry, nested keys joined by {@code ::}, in insertion order.
 * Numbers print as a C++ stream prints them by default (6 significant digits, %g style), so the
 * two reports read alike line for line.
 */
final class OutputFile {
    private final String key;
    private final String value;
    private final List<OutputFile> children = new ArrayList<>();

    OutputFile(String key, String value) {
        this.key = key;
        this.value = value;
    }

    OutputFile add(String k, String v) {
        OutputFile c = new OutputFile(k, v);
        children.add(c);
        return c;
    }

    OutputFile add(String k, double v) {
        return add(k, cppDouble(v));
    }

    OutputFile add(String k, long v) {
        return add(k, Long.toString(v));
    }

    OutputFile get(String k) {
        for (OutputFile c : children) {
            if (c.key.equals(k)) {
                return c;
            }
        }
        throw new IllegalArgumentException("no entry " + k);
    }

    /** The whole document: this node's key is the title, its value the version. */
    String generate() {
        StringBuilder sb = new StringBuilder();
        sb.append(key).append('\n').append("version=").append(value).append('\n');
        for (OutputFile c : children) {
            c.generate(sb, "");
        }
        return sb.toString();
    }

    private void generate(StringBuilder sb, String prefix) {
        sb.append(prefix).append(key).append('=').append(value).append('\n');
        for (OutputFile c : children) {
            c.generate(sb, prefix + key + "::");
        }
    }

    /** {@code std::ostream << double} with default flags: %g, precision 6, trailing zeros dropped. */
    static String cppDouble(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0.0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(6));
        int exp = d.precision() - d.scale() - 1;   // decimal exponent of the leading digit
        String s;
        if (exp < -4 || exp >= 6) {
            BigDecimal mant = d.movePointLeft(exp);
            String m = strip(mant.setScale(5, java.math.RoundingMode.HALF_EVEN).toPlainString());
            s = m + (exp < 0 ? "e-" : "e+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
        } else {
            s = strip(d.setScale(Math.max(0, 5 - exp), java.math.RoundingMode.HALF_EVEN).toPlainString());
        }
        return s;
    }

    private static String strip(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }
}

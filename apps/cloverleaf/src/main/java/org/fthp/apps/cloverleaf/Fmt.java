package org.fthp.apps.cloverleaf;

import java.util.Locale;

/** Fortran edit descriptors the reference prints with, so output lines up with its clover.out. */
final class Fmt {

    private Fmt() {}

    /** {@code Ew.d}: {@code 0.1234E+03}, right-justified in {@code w}. */
    static String e(double v, int w, int d) {
        String body;
        if (v == 0.0) {
            body = "0." + "0".repeat(d) + "E+00";
        } else if (!Double.isFinite(v)) {
            body = Double.toString(v);
        } else {
            // d significant digits, then shift the point left by one: 1.234e2 -> 0.1234E+03
            String s = String.format(Locale.ROOT, "%." + (d - 1) + "e", Math.abs(v));
            int ePos = s.indexOf('e');
            String digits = s.substring(0, ePos).replace(".", "");
            int exp = Integer.parseInt(s.substring(ePos + 1)) + 1;
            body = (v < 0 ? "-" : "") + "0." + digits + exponent(exp);
        }
        return pad(body, w);
    }

    /** {@code 1PEw.d}: {@code 1.23E-02}, right-justified in {@code w}. */
    static String es(double v, int w, int d) {
        if (!Double.isFinite(v)) {
            return pad(Double.toString(v), w);
        }
        String s = String.format(Locale.ROOT, "%." + d + "e", v);
        int ePos = s.indexOf('e');
        return pad(s.substring(0, ePos) + exponent(Integer.parseInt(s.substring(ePos + 1))), w);
    }

    /** {@code Fw.d}. */
    static String f(double v, int w, int d) {
        return pad(String.format(Locale.ROOT, "%." + d + "f", v), w);
    }

    /** {@code Iw}. */
    static String i(long v, int w) {
        return pad(Long.toString(v), w);
    }

    /** {@code Aw}: right-justified when wider than the text. */
    static String a(String s, int w) {
        return s.length() >= w ? s.substring(0, w) : pad(s, w);
    }

    private static String exponent(int exp) {
        String mag = Integer.toString(Math.abs(exp));
        if (mag.length() < 2) {
            mag = "0" + mag;
        }
        return "E" + (exp < 0 ? "-" : "+") + mag;
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : " ".repeat(w - s.length()) + s;
    }
}

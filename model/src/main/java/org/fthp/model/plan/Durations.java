package org.fthp.model.plan;

import java.util.Locale;

/** Durations as people write them: 125y, 2w, 5d, 12h, 30m, 2000s or plain seconds; and back, readably. */
public final class Durations {

    private static final double MINUTE = 60;
    private static final double HOUR = 3600;
    private static final double DAY = 86400;
    private static final double WEEK = 7 * DAY;
    private static final double YEAR = 365.25 * DAY;

    private Durations() {}

    /** Seconds in {@code text}; a message naming {@code option} if it is not a finite duration > 0. */
    public static double parseSeconds(String text, String option) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        double unit = 1;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'y' -> unit = YEAR;
                case 'w' -> unit = WEEK;
                case 'd' -> unit = DAY;
                case 'h' -> unit = HOUR;
                case 'm' -> unit = MINUTE;
                case 's' -> unit = 1;
                default -> unit = 0;
            }
            if (unit != 0) {
                t = t.substring(0, t.length() - 1);
            } else {
                unit = 1;
            }
        }
        double value;
        try {
            value = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a duration such as 125y, 2w, 5d, 12h, 30m, 2000s or "
                    + "plain seconds, not \"" + text + "\"");
        }
        double seconds = value * unit;
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException(option + " must be a duration > 0, not \"" + text + "\"");
        }
        return seconds;
    }

    /** 42 s, 12.5 min, 3.2 h, 4.1 days, 125 years. */
    public static String format(double seconds) {
        if (Double.isInfinite(seconds)) {
            return "never";
        }
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.0f s", seconds);
        }
        if (seconds < 2 * HOUR) {
            return String.format(Locale.ROOT, "%.1f min", seconds / MINUTE);
        }
        if (seconds < 2 * DAY) {
            return String.format(Locale.ROOT, "%.1f h", seconds / HOUR);
        }
        if (seconds < YEAR) {
            return String.format(Locale.ROOT, "%.1f days", seconds / DAY);
        }
        return String.format(Locale.ROOT, "%.3g years", seconds / YEAR);
    }
}

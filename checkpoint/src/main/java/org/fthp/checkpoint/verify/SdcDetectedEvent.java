package org.fthp.checkpoint.verify;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code sdc-detected} line of a job's events file, from the reason a copy gives when its twin differs
 * ({@link #REASON} {@code rank=R epoch=E what=messages|state firstSendAfter=N ...}). The coordinators write it for
 * a rollback in place and fthp-run for a difference that ends or relaunches the job; both see this module, so the
 * line has one shape.
 */
public final class SdcDetectedEvent {

    /** What a copy's reason begins with when its twin differs (tells it from a program's own exit 6). */
    public static final String REASON = "silent data corruption detected:";

    private SdcDetectedEvent() {}

    /**
     * The line (no line end) for {@code text}, a reason or a line that holds one (fields are read after
     * {@link #REASON} when it is there), at {@code time}; {@code action}: rollback, abort.
     */
    public static String line(Instant time, String text, String action) {
        int at = text.indexOf(REASON);
        Map<String, String> f = fields(at < 0 ? text : text.substring(at + REASON.length()));
        StringBuilder line = new StringBuilder("{\"time\":\"").append(time).append("\",\"event\":\"sdc-detected\"");
        number(line, "logicalRank", f.get("rank"));
        number(line, "epoch", f.get("epoch"));
        line.append(",\"what\":");
        string(line, f.getOrDefault("what", "unknown"));
        number(line, "firstSendAfter", f.get("firstSendAfter"));
        line.append(",\"action\":");
        string(line, action);
        return line.append('}').toString();
    }

    /** The {@code name=value} words of {@code text}, the first of each name. */
    private static Map<String, String> fields(String text) {
        Map<String, String> f = new HashMap<>();
        for (String word : text.split(" ")) {
            int eq = word.indexOf('=');
            if (eq > 0) {
                f.putIfAbsent(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return f;
    }

    private static void number(StringBuilder line, String name, String value) {
        if (value != null && value.matches("-?[0-9]+")) {
            line.append(",\"").append(name).append("\":").append(value);
        }
    }

    private static void string(StringBuilder line, String s) {
        line.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                line.append('\\').append(c);
            } else if (c < 0x20) {
                line.append(String.format("\\u%04x", (int) c));
            } else {
                line.append(c);
            }
        }
        line.append('"');
    }
}

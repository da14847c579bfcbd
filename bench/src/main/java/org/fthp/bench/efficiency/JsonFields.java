package org.fthp.bench.efficiency;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fields of the flat one-line JSON objects fthp-run's event log holds ({@code "key":value} or
 * {@code "key":"text"}); enough for those lines, not a JSON parser.
 */
final class JsonFields {

    private JsonFields() {}

    static Optional<String> text(String line, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":\"([^\"]*)\"").matcher(line);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** A number field; empty when missing or null. */
    static Optional<Double> number(String line, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":(-?[0-9][0-9.eE+-]*)").matcher(line);
        return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
    }
}

package org.fthp.apps.cloverleaf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a deck in the reference's {@code clover.in} format.
 *
 * <p>The format, as the reference's parser reads it: only lines between {@code *clover} and
 * {@code *endclover} count; case is ignored; {@code !} and {@code ;} start a comment; {@code =} and
 * {@code ,} separate like blanks, so {@code x_cells=960} and {@code x_cells 960} are the same. Each
 * keyword takes the next word as its value; a {@code state N} line gives the rest of its words to
 * state N. The reference silently skips what it does not know; here an unknown keyword, a missing or
 * malformed value or an inconsistent mesh is an error naming the line and keyword, because a typo in
 * a deck otherwise runs a different problem without a word.
 */
final class DeckParser {

    /** Keywords of reference decks that select things this port does not have; accepted and ignored. */
    private static final List<String> IGNORED_FLAGS = List.of("use_fortran_kernels", "use_c_kernels",
            "use_oa_kernels", "use_vector_loops");
    private static final List<String> IGNORED_WITH_VALUE = List.of("tiles_per_task", "tiles_per_chunk");

    private DeckParser() {}

    static Deck parse(String text) throws DeckException {
        double xmin = 0.0, ymin = 0.0, xmax = 100.0, ymax = 100.0;
        int xCells = 10, yCells = 10;
        double endTime = 10.0;
        int endStep = Deck.G_IBIG;
        int summaryFrequency = 10, visitFrequency = 0;
        double dtInit = 0.1, dtMax = 1.0, dtMin = 0.0000001, dtRise = 1.5;
        double dtcSafe = 0.7, dtuSafe = 0.5, dtvSafe = 0.5, dtdivSafe = 0.7;
        int testProblem = 0;
        boolean profilerOn = false;
        Map<Integer, StateBuilder> states = new TreeMap<>();

        boolean inBlock = false;
        boolean sawBlock = false;
        boolean closed = false;
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            int lineNo = n + 1;
            String l = clean(lines[n]);
            if (l.isEmpty()) {
                continue;
            }
            if (l.startsWith("*")) {
                String tag = l.split(" ")[0];
                if (tag.equals("*clover")) {
                    if (sawBlock) {
                        throw new DeckException(lineNo, tag, "a second *clover block");
                    }
                    inBlock = true;
                    sawBlock = true;
                } else if (tag.equals("*endclover")) {
                    if (!inBlock) {
                        throw new DeckException(lineNo, tag, "*endclover without *clover");
                    }
                    inBlock = false;
                    closed = true;
                } else if (inBlock) {
                    throw new DeckException(lineNo, tag, "unknown block marker inside *clover");
                }
                continue;
            }
            if (!inBlock) {
                continue;
            }
            Words w = new Words(l, lineNo);
            while (w.more()) {
                String key = w.next();
                switch (key) {
                    case "initial_timestep" -> dtInit = w.positiveReal(key);
                    case "max_timestep" -> dtMax = w.positiveReal(key);
                    case "timestep_rise" -> dtRise = w.positiveReal(key);
                    case "end_time" -> endTime = w.real(key);
                    case "end_step" -> endStep = w.integer(key);
                    case "xmin" -> xmin = w.real(key);
                    case "xmax" -> xmax = w.real(key);
                    case "ymin" -> ymin = w.real(key);
                    case "ymax" -> ymax = w.real(key);
                    case "x_cells" -> xCells = w.positiveInteger(key);
                    case "y_cells" -> yCells = w.positiveInteger(key);
                    case "visit_frequency" -> visitFrequency = w.nonNegativeInteger(key);
                    case "summary_frequency" -> summaryFrequency = w.nonNegativeInteger(key);
                    case "test_problem" -> testProblem = w.nonNegativeInteger(key);
                    case "profiler_on" -> profilerOn = true;
                    case "state" -> {
                        int s = w.positiveInteger(key);
                        if (states.containsKey(s)) {
                            throw new DeckException(lineNo, "state " + s, "state defined twice");
                        }
                        StateBuilder b = new StateBuilder(s, lineNo);
                        states.put(s, b);
                        while (w.more()) {
                            b.set(w.next(), w);
                        }
                    }
                    default -> {
                        if (IGNORED_WITH_VALUE.contains(key)) {
                            w.integer(key);
                        } else if (!IGNORED_FLAGS.contains(key)) {
                            throw new DeckException(lineNo, key, "unknown keyword");
                        }
                    }
                }
            }
        }
        if (!sawBlock) {
            throw new DeckException(0, "*clover", "no *clover block in the deck");
        }
        if (!closed) {
            throw new DeckException(lines.length, "*clover", "the *clover block is not closed by *endclover");
        }
        if (states.isEmpty()) {
            throw new DeckException(0, "state", "no states defined");
        }
        if (!(xmax > xmin)) {
            throw new DeckException(0, "xmax", "xmax (" + xmax + ") must be greater than xmin (" + xmin + ")");
        }
        if (!(ymax > ymin)) {
            throw new DeckException(0, "ymax", "ymax (" + ymax + ") must be greater than ymin (" + ymin + ")");
        }
        int count = Math.max(states.size(), ((TreeMap<Integer, StateBuilder>) states).lastKey());
        double dx = (xmax - xmin) / (double) xCells;
        double dy = (ymax - ymin) / (double) yCells;
        List<State> list = new ArrayList<>();
        for (int s = 1; s <= count; s++) {
            StateBuilder b = states.get(s);
            if (b == null) {
                throw new DeckException(0, "state " + s, "state " + s + " is not defined (states must be numbered 1.."
                        + count + " without gaps)");
            }
            State st = b.build();
            list.add(s == 1 ? st : st.shrunkBy(dx, dy));
        }
        return new Deck(xmin, ymin, xmax, ymax, xCells, yCells, endTime, endStep, summaryFrequency,
                visitFrequency, dtInit, dtMax, dtMin, dtRise, dtcSafe, dtuSafe, dtvSafe, dtdivSafe,
                testProblem, profilerOn, List.copyOf(list), text);
    }

    /** A line as the reference's parser sees it: control characters blanked, comments cut, lower case. */
    static String clean(String raw) {
        char[] cs = raw.toCharArray();
        for (int i = 0; i < cs.length; i++) {
            if (cs[i] < 32 || cs[i] > 128) {
                cs[i] = ' ';
            }
        }
        String l = new String(cs);
        int cut = l.indexOf('!');
        if (cut >= 0) {
            l = l.substring(0, cut);
        }
        cut = l.indexOf(';');
        if (cut >= 0) {
            l = l.substring(0, cut);
        }
        l = l.toLowerCase(Locale.ROOT).replace('=', ' ').replace(',', ' ').trim();
        return String.join(" ", Arrays.stream(l.split(" +")).filter(s -> !s.isEmpty()).toList());
    }

    /** The words of one line, read left to right. */
    private static final class Words {
        private final String[] words;
        private final int line;
        private int pos;

        Words(String cleaned, int line) {
            this.words = cleaned.split(" ");
            this.line = line;
        }

        boolean more() {
            return pos < words.length;
        }

        String next() {
            return words[pos++];
        }

        private String value(String key) throws DeckException {
            if (!more()) {
                throw new DeckException(line, key, "missing value");
            }
            return next();
        }

        double real(String key) throws DeckException {
            String v = value(key);
            // Fortran reals: 1, 1.5, .5, 1e3, 1.0d-3 (Fortran also writes exponents with d)
            if (!v.matches("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([ed][-+]?[0-9]+)?")) {
                throw new DeckException(line, key, "expected a number, got '" + v + "'");
            }
            return Double.parseDouble(v.replace('d', 'e'));
        }

        double positiveReal(String key) throws DeckException {
            double d = real(key);
            if (!(d > 0.0)) {
                throw new DeckException(line, key, "must be positive, got " + d);
            }
            return d;
        }

        int integer(String key) throws DeckException {
            String v = value(key);
            try {
                return Integer.parseInt(v.startsWith("+") ? v.substring(1) : v);
            } catch (NumberFormatException e) {
                throw new DeckException(line, key, "expected an integer, got '" + v + "'");
            }
        }

        int nonNegativeInteger(String key) throws DeckException {
            int i = integer(key);
            if (i < 0) {
                throw new DeckException(line, key, "must not be negative, got " + i);
            }
            return i;
        }

        int positiveInteger(String key) throws DeckException {
            int i = integer(key);
            if (i <= 0) {
                throw new DeckException(line, key, "must be positive, got " + i);
            }
            return i;
        }
    }

    /** The keywords of one state, collected until the whole deck is read. */
    private static final class StateBuilder {
        private final int number;
        private final int line;
        private double density, energy, xvel, yvel, xmin, xmax, ymin, ymax, radius;
        private State.Geometry geometry;

        StateBuilder(int number, int line) {
            this.number = number;
            this.line = line;
        }

        void set(String key, Words w) throws DeckException {
            String k = "state " + number + " " + key;
            switch (key) {
                case "density" -> density = w.real(k);
                case "energy" -> energy = w.real(k);
                case "xvel" -> xvel = w.real(k);
                case "yvel" -> yvel = w.real(k);
                case "xmin" -> xmin = w.real(k);
                case "xmax" -> xmax = w.real(k);
                case "ymin" -> ymin = w.real(k);
                case "ymax" -> ymax = w.real(k);
                case "radius" -> radius = w.real(k);
                case "geometry" -> {
                    String g = w.value(k);
                    geometry = switch (g) {
                        case "rectangle" -> State.Geometry.RECTANGLE;
                        case "circle" -> State.Geometry.CIRCLE;
                        case "point" -> State.Geometry.POINT;
                        default -> throw new DeckException(line, k,
                                "unknown geometry '" + g + "' (rectangle, circle or point)");
                    };
                }
                default -> throw new DeckException(line, k, "unknown state keyword");
            }
        }

        State build() throws DeckException {
            if (!(density > 0.0)) {
                throw new DeckException(line, "state " + number + " density", "must be positive, got " + density);
            }
            if (number > 1 && geometry == null) {
                throw new DeckException(line, "state " + number + " geometry",
                        "missing (states after the first need rectangle, circle or point)");
            }
            return new State(number, density, energy, xvel, yvel,
                    geometry == null ? State.Geometry.RECTANGLE : geometry, xmin, xmax, ymin, ymax, radius);
        }
    }
}

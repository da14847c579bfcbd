package org.fthp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns the result files of {@code bench/cold-start.sh} into Markdown tables, one per pair of implementations
 * (plain Java, no MPI).
 *
 * <p>Usage: {@code java org.fthp.bench.ColdStartReport <results-dir> <contender>:<base> ...}. The directory holds
 * {@code <impl>.<bench>.<rep>.txt} files; their result lines are
 * {@code coldpingpong <bytes> <oneway_us> ...} (the first block of round trips), {@code coldbest <bytes> <oneway_us>
 * <blocks>} (the fastest block) and {@code coldjit <ms>} ({@link ColdPingPong}) and {@code app <name> <rating> <wall_s>}
 * (written by the script from the app's own report: HPCG's GFLOP/s, CloverLeaf's cell updates per second); other
 * lines are ignored, and a file without any counts as a failed run.
 *
 * <p>Per row: each side's median over its repetitions, its fastest and slowest, and its spread (slowest over
 * fastest, whatever the direction of the figure); the ratio contender / base taken within each repetition (the
 * two ran back to back, so they saw the same state of a shared machine), its median and range, and in how many
 * repetitions the contender was at least as good; and the contender's spread over the base's.
 */
public final class ColdStartReport {

    /** The ping-pong's best-block rows go after its first-block rows, by size. */
    static final long BEST_ORDER = 1_500_000_000L;

    static final Pattern FILE_NAME = Pattern.compile("([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]+)\\.([0-9]+)\\.txt");

    /**
     * One line of the tables: a figure of one benchmark.
     *
     * @param order          where the row goes (apps first, then the ping-pong by size)
     * @param higherIsBetter a rate (true) or a time (false)
     */
    record Row(String label, long order, boolean higherIsBetter) {}

    /** impl -> row -> repetition -> value. */
    private final Map<String, Map<Row, Map<Integer, Double>>> data = new TreeMap<>();
    /** impl.bench -> repetitions whose file held no result. */
    private final Map<String, List<Integer>> failed = new TreeMap<>();

    /** Adds the output of one run: repetition {@code rep} of {@code bench} on {@code impl}. */
    public void add(String impl, String bench, int rep, List<String> lines) {
        int found = 0;
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            try {
                if (f.length >= 3 && f[0].equals("coldpingpong")) {
                    long bytes = Long.parseLong(f[1]);
                    put(impl, new Row("ping-pong byte[] " + BenchReport.formatBytes(bytes) + ", one-way µs",
                            1_000_000_000L + bytes, false), rep, Double.parseDouble(f[2]));
                    found++;
                } else if (f.length == 4 && f[0].equals("coldbest")) {
                    long bytes = Long.parseLong(f[1]);
                    put(impl, new Row("ping-pong byte[] " + BenchReport.formatBytes(bytes) + ", best of "
                            + Integer.parseInt(f[3]) + " blocks, one-way µs", BEST_ORDER + bytes, false), rep,
                            Double.parseDouble(f[2]));
                } else if (f.length == 2 && f[0].equals("coldjit")) {
                    put(impl, new Row("ping-pong: CPU ms of rank 0's JIT compiler threads", 2_000_000_000L, false),
                            rep, Double.parseDouble(f[1]));
                } else if (f.length == 4 && f[0].equals("app")) {
                    long order = appOrder(f[1]);
                    put(impl, new Row(f[1] + " " + appUnit(f[1]), order, true), rep, Double.parseDouble(f[2]));
                    put(impl, new Row(f[1] + " job wall s", order + 1, false), rep, Double.parseDouble(f[3]));
                    found++;
                }
            } catch (NumberFormatException e) {
                // not a result line
            }
        }
        if (found == 0) failed.computeIfAbsent(impl + "." + bench, k -> new ArrayList<>()).add(rep);
    }

    private static long appOrder(String app) {
        return switch (app) {
            case "hpcg" -> 0;
            case "cloverleaf" -> 10;
            default -> 100 + (app.hashCode() & 0xffffL) * 2;
        };
    }

    private static String appUnit(String app) {
        return switch (app) {
            case "hpcg" -> "GFLOP/s";
            case "cloverleaf" -> "cell updates/s";
            default -> "rating";
        };
    }

    private void put(String impl, Row row, int rep, double value) {
        data.computeIfAbsent(impl, k -> new TreeMap<>(Comparator.comparingLong(Row::order)))
                .computeIfAbsent(row, k -> new TreeMap<>()).put(rep, value);
    }

    /** Reads every {@code <impl>.<bench>.<rep>.txt} in {@code dir}. */
    public void addDirectory(Path dir) throws IOException {
        List<Path> paths;
        try (Stream<Path> s = Files.list(dir)) {
            paths = s.sorted().toList();
        }
        for (Path p : paths) {
            Matcher m = FILE_NAME.matcher(p.getFileName().toString());
            if (m.matches()) add(m.group(1), m.group(2), Integer.parseInt(m.group(3)), Files.readAllLines(p));
        }
    }

    /** The values of one side's row, by repetition; empty if it never ran. */
    Map<Integer, Double> values(String impl, Row row) {
        return data.getOrDefault(impl, Map.of()).getOrDefault(row, Map.of());
    }

    /** Slowest over fastest: max/min for a time, the same for a rate; NaN for no value. */
    static double spread(Iterable<Double> values) {
        double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return min > 0 && min <= max ? max / min : Double.NaN;
    }

    /** contender / base within each repetition both have. */
    List<Double> ratios(String contender, String base, Row row) {
        Map<Integer, Double> c = values(contender, row), b = values(base, row);
        List<Double> out = new ArrayList<>();
        for (Map.Entry<Integer, Double> e : c.entrySet()) {
            Double other = b.get(e.getKey());
            if (other != null && other != 0) out.add(e.getValue() / other);
        }
        return out;
    }

    /** Writes one table per pair, and the runs that gave no result. */
    public void print(PrintStream out, List<String[]> pairs) {
        for (String[] pair : pairs) {
            String contender = pair[0], base = pair[1];
            List<Row> rows = new ArrayList<>(data.getOrDefault(contender, Map.of()).keySet());
            for (Row r : data.getOrDefault(base, Map.of()).keySet()) {
                if (!rows.contains(r)) rows.add(r);
            }
            if (rows.isEmpty()) continue;
            rows.sort(Comparator.comparingLong(Row::order));
            out.printf("### %s against %s%n%n", contender, base);
            out.printf("| figure | %s median | min–max | spread | %s median | min–max | spread "
                    + "| %s / %s within reps: median | min–max | %s at least as good | spread ratio |%n",
                    base, contender, contender, base, contender);
            out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            for (Row row : rows) {
                Map<Integer, Double> b = values(base, row), c = values(contender, row);
                List<Double> ratios = ratios(contender, base, row);
                int good = 0;
                for (double r : ratios) {
                    if (row.higherIsBetter() ? r >= 1 : r <= 1) good++;
                }
                double sb = spread(b.values()), sc = spread(c.values());
                out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", row.label(),
                        num(BenchReport.median(new ArrayList<>(b.values()))), range(b.values()), ratio(sb),
                        num(BenchReport.median(new ArrayList<>(c.values()))), range(c.values()), ratio(sc),
                        ratio(BenchReport.median(ratios)), range(ratios),
                        ratios.isEmpty() ? "–" : good + " of " + ratios.size(), ratio(sc / sb));
            }
            out.println();
            out.println("Spread: slowest over fastest repetition. Ratios above 1 mean the contender's figure is the"
                    + " larger: better for a rate, worse for a time.");
            out.println();
        }
        if (!failed.isEmpty()) {
            out.println("Runs without a result (see their .txt and .err files):");
            failed.forEach((id, reps) -> out.println("- " + id + ": repetition " + reps));
            out.println();
        }
    }

    private static String num(double v) {
        if (Double.isNaN(v)) return "–";
        if (v >= 1e5) return String.format(Locale.ROOT, "%.4g", v);
        return BenchReport.num(v);
    }

    private static String ratio(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String range(Iterable<Double> values) {
        List<Double> v = new ArrayList<>();
        values.forEach(v::add);
        if (v.isEmpty()) return "–";
        return num(Collections.min(v)) + "–" + num(Collections.max(v));
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ColdStartReport <results-dir> <contender>:<base> ...");
            System.exit(2);
        }
        List<String[]> pairs = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String[] p = args[i].split(":");
            if (p.length != 2 || p[0].isEmpty() || p[1].isEmpty()) {
                System.err.println("ColdStartReport: not a <contender>:<base> pair: " + args[i]);
                System.exit(2);
            }
            pairs.add(p);
        }
        Path dir = Path.of(args[0]);
        if (!Files.isDirectory(dir)) {
            System.err.println("ColdStartReport: no directory " + dir);
            System.exit(2);
        }
        ColdStartReport report = new ColdStartReport();
        report.addDirectory(dir);
        report.print(System.out, pairs);
    }
}

package org.fthp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns the result files of {@code bench/run.sh} into Markdown tables (plain Java, no MPI).
 *
 * <p>Usage: {@code java org.fthp.bench.BenchReport <results-dir>}. The directory holds files
 * named {@code <impl>.<bench>.<rep>.txt}, for example {@code c.pingpong.1.txt},
 * {@code java.pingpong.1.txt}, {@code java-arrays.pingpong.2.txt}, {@code jni.allreduce.3.txt}.
 * {@code c} is the baseline; every other implementation is compared against it.
 * Lines other than {@code pingpong <bytes> <oneway_us> <GBps> [<min_slice_us> <max_slice_us>]}
 * and {@code allreduce <count> <us> [<min_slice_us> <max_slice_us>]} (launcher noise,
 * warnings) are ignored; the slice extremes stay in the raw files.
 *
 * <p>For each implementation, size and metric the median over the repetitions is shown. Next
 * to C's median stands the range of its repetitions: on a shared machine a whole run can land in a
 * slow state, several times slower than the next and steady within itself. A ratio is therefore taken
 * within each repetition, whose runs follow one another, and the median of those ratios is shown
 * ({@link #pairedRatio}): medians of columns taken apart can each come from another state (C's from
 * its slow repetitions, the contender's from its fast ones). A contender whose median
 * beats C's fastest repetition by more than {@link #SUSPECT_MARGIN} is marked: a facade
 * cannot beat the library it calls, so such a ratio measures the machine, not the code.
 */
public final class BenchReport {
    public static final String BASELINE = "c";
    public static final String FACADE = "java";

    /** How far below C's fastest repetition a contender's median may fall before it is marked. */
    public static final double SUSPECT_MARGIN = 0.05;
    static final String SUSPECT = " †";
    /** C's slowest repetition over its fastest above which the report says the machine changed state. */
    static final double STATE_SPREAD = 1.5;

    static final Pattern FILE_NAME = Pattern.compile("([A-Za-z0-9_-]+)\\.(pingpong|allreduce)\\.([^.]+)\\.txt");

    /** One parsed result line. For pingpong {@code values = {oneway_us, GBps}}, for allreduce {@code {us}}. */
    public record Sample(String bench, long key, double[] values) {}

    /**
     * impl -> bench -> key (bytes or count) -> repetition -> that repetition's samples ({@link Sample#values()}),
     * in the order read. The medians take every sample, a ratio within a repetition its last.
     */
    final Map<String, Map<String, TreeMap<Long, Map<String, List<double[]>>>>> data = new TreeMap<>();
    /** impl.bench -> number of files read, and of files that had no result line. */
    final Map<String, Integer> files = new TreeMap<>();
    final Map<String, Integer> emptyFiles = new TreeMap<>();

    // ---------------------------------------------------------------- parsing

    /** Parses one result line; null if it is not a result line. */
    public static Sample parseLine(String line) {
        String[] f = line.trim().split("\\s+");
        try {
            if ((f.length == 4 || f.length == 6) && f[0].equals("pingpong")) {
                return new Sample("pingpong", Long.parseLong(f[1]),
                        new double[] {Double.parseDouble(f[2]), Double.parseDouble(f[3])});
            }
            if ((f.length == 3 || f.length == 5) && f[0].equals("allreduce")) {
                return new Sample("allreduce", Long.parseLong(f[1]), new double[] {Double.parseDouble(f[2])});
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return null;
    }

    /** Parses all result lines of one output; other lines are skipped. */
    public static List<Sample> parse(List<String> lines) {
        List<Sample> out = new ArrayList<>();
        for (String l : lines) {
            Sample s = parseLine(l);
            if (s != null) out.add(s);
        }
        return out;
    }

    /** Adds the output of one run of implementation {@code impl}; the n-th run added is repetition n. */
    public void add(String impl, String bench, List<String> lines) {
        add(impl, bench, Integer.toString(files.getOrDefault(impl + "." + bench, 0) + 1), lines);
    }

    /** Adds the output of repetition {@code repetition} of implementation {@code impl}. */
    public void add(String impl, String bench, String repetition, List<String> lines) {
        String id = impl + "." + bench;
        files.merge(id, 1, Integer::sum);
        List<Sample> samples = parse(lines);
        if (samples.isEmpty()) emptyFiles.merge(id, 1, Integer::sum);
        for (Sample s : samples) {
            data.computeIfAbsent(impl, k -> new TreeMap<>()).computeIfAbsent(s.bench(), k -> new TreeMap<>())
                    .computeIfAbsent(s.key(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(repetition, k -> new ArrayList<>()).add(s.values());
        }
    }

    /** Reads every {@code <impl>.<bench>.<rep>.txt} in {@code dir}. */
    public void addDirectory(Path dir) throws IOException {
        List<Path> paths;
        try (Stream<Path> s = Files.list(dir)) {
            paths = s.sorted().toList();
        }
        for (Path p : paths) {
            Matcher m = FILE_NAME.matcher(p.getFileName().toString());
            if (m.matches()) add(m.group(1), m.group(2), m.group(3), Files.readAllLines(p));
        }
    }

    // ---------------------------------------------------------------- statistics

    /** Median; mean of the two middle values for an even count; NaN if empty. */
    public static double median(List<Double> values) {
        if (values == null || values.isEmpty()) return Double.NaN;
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2.0;
    }

    /** Median of metric {@code metric} for impl/bench/key, NaN if absent. */
    public double median(String impl, String bench, long key, int metric) {
        return median(values(impl, bench, key, metric));
    }

    /** The values of metric {@code metric} over the repetitions of impl/bench/key; empty if absent. */
    List<Double> values(String impl, String bench, long key, int metric) {
        List<Double> values = new ArrayList<>();
        for (List<double[]> samples : repetitions(impl, bench, key).values()) {
            for (double[] v : samples) {
                if (v.length > metric) values.add(v[metric]);
            }
        }
        return values;
    }

    /**
     * The median over the repetitions that both ran of {@code impl}'s metric over {@code other}'s, each
     * ratio taken within one repetition; NaN if they share none.
     */
    public double pairedRatio(String impl, String other, String bench, long key, int metric) {
        Map<String, List<double[]>> mine = repetitions(impl, bench, key), theirs = repetitions(other, bench, key);
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<String, List<double[]>> e : mine.entrySet()) {
            List<double[]> t = theirs.get(e.getKey());
            if (t == null) continue;
            double[] m = e.getValue().getLast(), o = t.getLast();
            if (o.length > metric && m.length > metric && o[metric] != 0) {
                ratios.add(m[metric] / o[metric]);
            }
        }
        return median(ratios);
    }

    private Map<String, List<double[]>> repetitions(String impl, String bench, long key) {
        return data.getOrDefault(impl, Map.of()).getOrDefault(bench, new TreeMap<>()).getOrDefault(key, Map.of());
    }

    /** {@link #pairedRatio} formatted; the ratio of the medians where no repetition has both. */
    String ratio(String impl, String other, String bench, long key, int metric) {
        double r = pairedRatio(impl, other, bench, key, metric);
        return Double.isNaN(r) ? ratio(median(impl, bench, key, metric), median(other, bench, key, metric))
                : String.format(Locale.ROOT, "%.2f", r);
    }

    /** C's slowest repetition over its fastest, at the size where they are furthest apart; NaN without C data. */
    double baselineSpread() {
        double spread = Double.NaN;
        for (Map.Entry<String, TreeMap<Long, Map<String, List<double[]>>>> b
                : data.getOrDefault(BASELINE, Map.of()).entrySet()) {
            for (long key : b.getValue().keySet()) {
                List<Double> t = values(BASELINE, b.getKey(), key, 0);
                double s = Collections.max(t) / Collections.min(t);
                spread = Double.isNaN(spread) ? s : Math.max(spread, s);
            }
        }
        return spread;
    }

    /** C's fastest and slowest repetition of a time metric, as "min–max"; "–" without C data. */
    String baselineRange(String bench, long key) {
        List<Double> v = values(BASELINE, bench, key, 0);
        if (v.isEmpty()) return "–";
        return num(Collections.min(v)) + "–" + num(Collections.max(v));
    }

    /**
     * Whether {@code impl}'s median time beats C's fastest repetition by more than
     * {@link #SUSPECT_MARGIN}: the comparison then reflects the machine's state, not the code.
     */
    public boolean suspect(String impl, String bench, long key) {
        if (pulled(impl, bench, key)) {
            return false;
        }
        List<Double> c = values(BASELINE, bench, key, 0);
        double m = median(impl, bench, key, 0);
        return !c.isEmpty() && !Double.isNaN(m) && m < Collections.min(c) * (1 - SUSPECT_MARGIN);
    }

    /**
     * Payloads from this size cross the facade without the native library's transfer: the receiver copies
     * them from the sender's memory (FTHP_PULL_BYTES, as the ranks read it; 0 or less: never).
     */
    static final long PULL_BYTES = pullBytes();

    private static long pullBytes() {
        String env = System.getenv("FTHP_PULL_BYTES");
        try {
            // the ranks' default: every payload apart from its header, i.e. above the 4000-byte eager limit
            long v = env == null || env.isBlank() ? 4000 : Long.parseLong(env.strip());
            return v <= 0 ? Long.MAX_VALUE : v;
        } catch (NumberFormatException e) {
            return 4000;
        }
    }

    /** Whether the facade's ping-pong of this size was pulled, so it may legitimately beat native C. */
    static boolean pulled(String impl, String bench, long key) {
        return (impl.equals(FACADE) || impl.equals("java-arrays")) && bench.equals("pingpong") && key >= PULL_BYTES;
    }

    int reps(String impl, String bench, long key) {
        return values(impl, bench, key, 0).size();
    }

    // ---------------------------------------------------------------- formatting

    public static String formatBytes(long b) {
        if (b >= 1L << 20 && b % (1L << 20) == 0) return (b >> 20) + " MiB";
        if (b >= 1L << 10 && b % (1L << 10) == 0) return (b >> 10) + " KiB";
        return b + " B";
    }

    public static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return "–";
        if (v < 1) return String.format(Locale.ROOT, "%.3f", v);
        if (v < 100) return String.format(Locale.ROOT, "%.2f", v);
        return String.format(Locale.ROOT, "%.1f", v);
    }

    public static String ratio(double num, double den) {
        if (Double.isNaN(num) || Double.isNaN(den) || den == 0) return "–";
        return String.format(Locale.ROOT, "%.2f", num / den);
    }

    /** Long name, for table titles. */
    static String label(String impl, String bench) {
        return switch (impl) {
            case FACADE -> bench.equals("pingpong") ? "facade (direct ByteBuffer)" : "facade (double[])";
            case "java-arrays" -> "facade (byte[])";
            case "jni" -> bench.equals("pingpong") ? "Open MPI JNI binding (direct ByteBuffer)"
                    : "Open MPI JNI binding (double[])";
            case "jni-arrays" -> "Open MPI JNI binding (byte[])";
            default -> impl;
        };
    }

    /** Short name, for column headers. */
    static String column(String impl) {
        return switch (impl) {
            case FACADE -> "facade";
            case "java-arrays" -> "facade byte[]";
            case "jni" -> "JNI";
            case "jni-arrays" -> "JNI byte[]";
            default -> impl;
        };
    }

    /** Compared implementations: the facade first (always), then the others alphabetically. */
    List<String> contenders() {
        List<String> l = new ArrayList<>();
        l.add(FACADE); // always: its columns stay empty when all its runs failed
        for (String k : data.keySet()) if (!k.equals(BASELINE) && !k.equals(FACADE)) l.add(k);
        return l;
    }

    TreeSet<Long> keys(String bench, String... impls) {
        TreeSet<Long> keys = new TreeSet<>();
        for (String i : impls) keys.addAll(data.getOrDefault(i, Map.of()).getOrDefault(bench, new TreeMap<>()).keySet());
        return keys;
    }

    /** The facade's table is always shown (empty columns = its runs failed); others only with data. */
    boolean shows(String impl, String bench) {
        return impl.equals(FACADE) ? !keys(bench, BASELINE, impl).isEmpty() : !keys(bench, impl).isEmpty();
    }

    String repsNote(String bench, String impl) {
        TreeSet<Integer> n = new TreeSet<>();
        for (long k : keys(bench, impl)) n.add(reps(impl, bench, k));
        return n.isEmpty() ? "0" : n.size() == 1 ? n.first().toString() : n.first() + "–" + n.last();
    }

    public void print(PrintStream out) {
        List<String> contenders = contenders();
        boolean suspects = false;
        if (!data.containsKey(BASELINE)) out.println("_No native C results found._\n");

        for (String impl : contenders) {
            if (!shows(impl, "pingpong")) continue;
            out.printf("### Ping-pong, 2 ranks: native C vs %s%n%n", label(impl, "pingpong"));
            out.printf("Medians over %s (C) and %s (%s) repetitions, each the median of its timed slices; "
                    + "C runs: C's fastest and slowest repetition. One-way time = round trip / 2; "
                    + "ratio = %s / C within each repetition, median over the repetitions "
                    + "(latency: >1 is slower; bandwidth: <1 is slower).%n%n",
                    repsNote("pingpong", BASELINE), repsNote("pingpong", impl), column(impl), column(impl));
            out.printf("| size | native C one-way µs | C runs | %s µs | ratio | native GB/s | %s GB/s | ratio |%n",
                    column(impl), column(impl));
            out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            for (long k : keys("pingpong", BASELINE, impl)) {
                double cu = median(BASELINE, "pingpong", k, 0), fu = median(impl, "pingpong", k, 0);
                double cb = median(BASELINE, "pingpong", k, 1), fb = median(impl, "pingpong", k, 1);
                String mark = suspect(impl, "pingpong", k) ? SUSPECT : "";
                suspects |= !mark.isEmpty();
                out.printf("| %s | %s | %s | %s | %s%s | %s | %s | %s%s |%n", formatBytes(k), num(cu),
                        baselineRange("pingpong", k), num(fu), ratio(impl, BASELINE, "pingpong", k, 0), mark,
                        num(cb), num(fb), ratio(impl, BASELINE, "pingpong", k, 1), mark);
            }
            out.println();
        }
        for (String impl : contenders) {
            if (!shows(impl, "allreduce")) continue;
            out.printf("### Allreduce (double, SUM), all ranks: native C vs %s%n%n", label(impl, "allreduce"));
            out.printf("Medians over %s (C) and %s (%s) repetitions, each the median of its timed slices; "
                    + "time per call, slowest rank; C runs: C's fastest and slowest repetition; ratio = %s / C "
                    + "within each repetition, median over the repetitions.%n%n",
                    repsNote("allreduce", BASELINE), repsNote("allreduce", impl), column(impl), column(impl));
            out.printf("| doubles | bytes | native C µs | C runs | %s µs | ratio |%n", column(impl));
            out.println("| ---: | ---: | ---: | ---: | ---: | ---: |");
            for (long k : keys("allreduce", BASELINE, impl)) {
                double c = median(BASELINE, "allreduce", k, 0), f = median(impl, "allreduce", k, 0);
                String mark = suspect(impl, "allreduce", k) ? SUSPECT : "";
                suspects |= !mark.isEmpty();
                out.printf("| %d | %s | %s | %s | %s | %s%s |%n", k, formatBytes(k * 8), num(c),
                        baselineRange("allreduce", k), num(f), ratio(impl, BASELINE, "allreduce", k, 0), mark);
            }
            out.println();
        }
        // FTHP-J against Open MPI's own Java binding, same buffer kind: what a program moving from
        // the binding to FTHP-J sees
        String[][] pairs = {{"java-arrays", "jni-arrays", "pingpong", "byte[]"},
                {FACADE, "jni", "pingpong", "direct ByteBuffer"}, {FACADE, "jni", "allreduce", "double[]"}};
        for (String[] p : pairs) {
            String ours = p[0], theirs = p[1], bench = p[2];
            if (keys(bench, theirs).isEmpty() || keys(bench, ours).isEmpty()) continue;
            out.printf("### %s, %s: FTHP-J vs Open MPI's Java binding%n%n",
                    bench.equals("pingpong") ? "Ping-pong one-way" : "Allreduce (double, SUM)", p[3]);
            out.println("Medians (µs); ratios within each repetition, median over the repetitions: >1 is slower.\n");
            out.printf("| %s | native C | binding | FTHP-J | binding / C | FTHP-J / C | FTHP-J / binding |%n",
                    bench.equals("pingpong") ? "size" : "doubles");
            out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            for (long k : keys(bench, ours, theirs)) {
                double c = median(BASELINE, bench, k, 0), b = median(theirs, bench, k, 0),
                        f = median(ours, bench, k, 0);
                String mark = suspect(ours, bench, k) || suspect(theirs, bench, k) ? SUSPECT : "";
                suspects |= !mark.isEmpty();
                out.printf("| %s | %s | %s | %s | %s%s | %s%s | %s |%n",
                        bench.equals("pingpong") ? formatBytes(k) : Long.toString(k), num(c), num(b), num(f),
                        ratio(theirs, BASELINE, bench, k, 0), mark, ratio(ours, BASELINE, bench, k, 0), mark,
                        ratio(ours, theirs, bench, k, 0));
            }
            out.println();
        }
        double spread = baselineSpread();
        if (spread > STATE_SPREAD) {
            out.printf("_Native C's repetitions differ by up to %.1f× at one size: the machine changed state during "
                    + "this run. The ratios are taken within repetitions; the medians of two columns may come from "
                    + "different states and do not compare with each other._%n%n", spread);
        }
        if (suspects) {
            out.printf("†: this median beats native C's fastest run by more than %.0f %%. A facade cannot beat "
                    + "the library it calls: the machine was in a different state during C's runs than during "
                    + "this one's. Do not quote the ratio; rerun with more repetitions (REPS).%n%n",
                    SUSPECT_MARGIN * 100);
        }
        if (PULL_BYTES != Long.MAX_VALUE && keys("pingpong", FACADE, "java-arrays").ceiling(PULL_BYTES) != null) {
            out.printf("The facade's payloads from %s (FTHP_PULL_BYTES) do not go through the native library's "
                    + "transfer: a receiver on the sender's host copies them from the sender's memory, so there the "
                    + "facade can beat native C, and is not marked.%n%n", formatBytes(PULL_BYTES));
        }
        Map<String, String> problems = new LinkedHashMap<>();
        emptyFiles.forEach((id, n) -> problems.put(id, n + " of " + files.get(id) + " runs produced no results"));
        if (!problems.isEmpty()) {
            out.println("**Failed runs** (see the `.txt`/`.err` files in the results directory):");
            problems.forEach((id, msg) -> out.println("- " + id + ": " + msg));
            out.println();
        }
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: java org.fthp.bench.BenchReport <results-dir>");
            System.exit(2);
        }
        BenchReport r = new BenchReport();
        try {
            r.addDirectory(Path.of(args[0]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        r.print(System.out);
    }
}

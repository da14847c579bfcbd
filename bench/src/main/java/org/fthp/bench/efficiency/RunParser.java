package org.fthp.bench.efficiency;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one run directory of bench/efficiency.sh: {@code run.properties}, {@code events.jsonl},
 * {@code stderr.txt} and what the application wrote into {@code out/} ({@link AppResult}).
 */
public final class RunParser {

    private static final Pattern REPAIRS = Pattern.compile("(\\d+) repairs?; repair time median ([0-9.]+) ms");
    private static final Pattern TRIM = Pattern.compile("log trimming ([0-9.]+) ms");

    private RunParser() {}

    public static RunRecord read(Path dir) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(dir.resolve("run.properties"))) {
            p.load(in);
        }
        List<String> events = lines(dir.resolve("events.jsonl"));
        List<String> stderr = lines(dir.resolve("stderr.txt"));
        AppResult result = AppResult.read(dir.resolve("out"));
        int exit = Integer.parseInt(p.getProperty("exit", "-1").strip());
        return fromText(Mode.ofDirectory(p.getProperty("mode").strip()), Long.parseLong(p.getProperty("seed", "0").strip()),
                Integer.parseInt(p.getProperty("ranks").strip()), Integer.parseInt(p.getProperty("replicas").strip()),
                Double.parseDouble(p.getProperty("mtbf.per.process", "NaN").strip()),
                Double.parseDouble(p.getProperty("wall.seconds").strip()), exit,
                Double.parseDouble(p.getProperty("load.before", "NaN").strip()), events, stderr, result);
    }

    /** The figures of a run from its texts and its application's result. */
    static RunRecord fromText(Mode mode, long seed, int ranks, int replicas, double mtbf, double wall, int exit,
                              double load, List<String> events, List<String> stderr, AppResult result) {
        int failures = 0;
        int restarts = 0;
        List<Double> costs = new ArrayList<>();
        double interval = Double.NaN;
        double lost = 0;
        double relaunch = 0;
        for (String line : events) {
            String event = JsonFields.text(line, "event").orElse("");
            switch (event) {
                case "failure-injected" -> failures++;
                case "job-restarted" -> {
                    restarts++;
                    lost += JsonFields.number(line, "lostWorkSeconds").orElse(0.0);
                    relaunch += JsonFields.number(line, "restartSeconds").orElse(0.0);
                }
                case "checkpoint-committed" -> JsonFields.number(line, "costSeconds").ifPresent(costs::add);
                case "checkpoint-interval" -> interval = JsonFields.number(line, "seconds").orElse(interval);
                default -> { }
            }
        }
        int repairs = 0;
        double repairMedian = 0;
        double trim = 0;
        for (String line : stderr) {
            if (!line.startsWith("fthp-run: summary:")) {
                continue;
            }
            Matcher r = REPAIRS.matcher(line);
            if (r.find()) {
                repairs = Integer.parseInt(r.group(1));
                repairMedian = Double.parseDouble(r.group(2));
            }
            Matcher t = TRIM.matcher(line);
            if (t.find()) {
                trim = Double.parseDouble(t.group(1));
            }
        }
        boolean completed = exit == 0 && result.valid();
        return new RunRecord(mode, seed, ranks, replicas, mtbf, wall, exit, result.app(), completed, result.work(),
                result.answer(), failures, restarts,
                List.copyOf(costs), interval, lost, relaunch, repairs, repairMedian, trim, load);
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }
}

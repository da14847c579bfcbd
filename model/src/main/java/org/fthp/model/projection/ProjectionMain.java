package org.fthp.model.projection;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;
import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Strategy;

/**
 * Writes the model's projections into a directory: per scenario a CSV, an
 * efficiency-vs-processes PNG and a time-split PNG, and crossover.csv.
 *
 * <pre>
 * ProjectionMain OUTPUT_DIR [--calibration FILE] [--runs N] [--seed S]
 * </pre>
 *
 * Without {@code --calibration} the costs are the paper's HPCG ones
 * ({@link Calibration#paperHpcg()}). Exit 2 on bad arguments.
 */
public final class ProjectionMain {

    private static final double HOUR = 3600;

    private ProjectionMain() {}

    public static void main(String[] args) throws IOException {
        Path out = null;
        Calibration calibration = null;
        int runs = 200;
        long seed = 2026;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--calibration" -> calibration = Calibration.load(Path.of(value(args, ++i, "--calibration")));
                    case "--runs" -> runs = Integer.parseInt(value(args, ++i, "--runs"));
                    case "--seed" -> seed = Long.parseLong(value(args, ++i, "--seed"));
                    case "-h", "--help" -> {
                        System.out.println("usage: ProjectionMain OUTPUT_DIR [--calibration FILE] [--runs N] [--seed S]");
                        return;
                    }
                    default -> {
                        if (args[i].startsWith("-") || out != null) {
                            throw new IllegalArgumentException("unexpected argument \"" + args[i] + "\"");
                        }
                        out = Path.of(args[i]);
                    }
                }
            }
            if (out == null) {
                throw new IllegalArgumentException("missing OUTPUT_DIR");
            }
            if (runs < 2) {
                throw new IllegalArgumentException("--runs must be >= 2, not " + runs);
            }
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("projection: " + e.getMessage());
            System.err.println("usage: ProjectionMain OUTPUT_DIR [--calibration FILE] [--runs N] [--seed S]");
            System.exit(2);
            return;
        }
        Files.createDirectories(out);
        Calibration costs = calibration != null ? calibration : Calibration.paperHpcg();
        List<String> crossovers = new ArrayList<>();
        crossovers.add("scenario,crossover_processes,system_mtbf_at_crossover_s,leader_below,leader_above");
        for (Scenario scenario : scenarios(costs)) {
            Projection projection = new Projection(scenario, runs, seed);
            List<ProjectionPoint> points = projection.points();
            OptionalDouble crossover = projection.crossoverProcesses();
            ProjectionCsv.write(out.resolve(scenario.name() + ".csv"), scenario, points);
            EfficiencyChart.write(out.resolve(scenario.name() + "-efficiency.png"), scenario, points, crossover);
            TimeSplitChart.write(out.resolve(scenario.name() + "-time-split.png"), scenario, points,
                    splitCounts(scenario.processes()));
            print(scenario, points, crossover);
            crossovers.add(crossoverRow(scenario, points, crossover));
        }
        try (Writer w = Files.newBufferedWriter(out.resolve("crossover.csv"))) {
            for (String line : crossovers) {
                w.write(line);
                w.write('\n');
            }
        }
        System.out.println("wrote " + out.toAbsolutePath());
    }

    /** The paper's own runs, then projections to a million processes at 125 years per process and less. */
    static List<Scenario> scenarios(Calibration costs) {
        double paperPerProcess = 2000.0 * 8192;   // 16000 s at 1024 processes, 2000 s at 8192
        double year = Machine.YEAR_SECONDS;
        List<Integer> toMillion = Scenario.doublingFrom1024(1 << 20);
        Calibration flat = new Calibration(costs.referenceRanks(), costs.checkpointSeconds(), 0,
                costs.restoreSeconds(), costs.relaunchSeconds(), costs.repairSeconds(), costs.replicationOverhead(),
                costs.logTrimFraction());
        return List.of(
                new Scenario("paper-hpcg-3h", "HPCG 3 h, system MTBF 16000 s at 1k halving per doubling (the paper)",
                        paperPerProcess, 0.7, Strikes.ANY_PROCESS, 3 * HOUR, costs,
                        Scenario.doublingFrom1024(16384), 1),
                new Scenario("mtbf125y-3h", "3 h job, per-process MTBF 125 years, Weibull 0.7",
                        125 * year, 0.7, Strikes.ANY_PROCESS, 3 * HOUR, costs, toMillion, 1),
                new Scenario("mtbf125y-1week", "1 week job, per-process MTBF 125 years, Weibull 0.7",
                        125 * year, 0.7, Strikes.ANY_PROCESS, 168 * HOUR, costs, toMillion, 1),
                new Scenario("mtbf25y-1day", "1 day job, per-process MTBF 25 years, Weibull 0.7",
                        25 * year, 0.7, Strikes.ANY_PROCESS, 24 * HOUR, costs, toMillion, 1),
                new Scenario("mtbf125y-3h-flat-checkpoint",
                        "3 h job, 125 years, checkpoint cost not growing with the data",
                        125 * year, 0.7, Strikes.ANY_PROCESS, 3 * HOUR, flat, toMillion, 1));
    }

    /** At most five counts for the bars: the first, the last and three between. */
    static Set<Integer> splitCounts(List<Integer> counts) {
        Set<Integer> chosen = new LinkedHashSet<>();
        int n = counts.size();
        int bars = Math.min(5, n);
        for (int i = 0; i < bars; i++) {
            chosen.add(counts.get(bars == 1 ? 0 : (int) Math.round((double) i * (n - 1) / (bars - 1))));
        }
        return chosen;
    }

    private static void print(Scenario scenario, List<ProjectionPoint> points, OptionalDouble crossover) {
        System.out.println("== " + scenario.name() + ": " + scenario.title());
        System.out.printf(Locale.ROOT, "%9s %11s %27s %27s %27s%n", "processes", "sys MTBF s",
                Strategy.CHECKPOINT_RESTART.label(), Strategy.REPLICATION.label(),
                Strategy.REPLICATION_CHECKPOINT.label());
        for (int i = 0; i < points.size(); i += Strategy.values().length) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%9d %11.0f",
                    points.get(i).processes(), points.get(i).systemMtbfSeconds()));
            for (int s = 0; s < Strategy.values().length; s++) {
                var e = points.get(i + s).estimate();
                line.append(String.format(Locale.ROOT, "   %.3f [%.3f-%.3f]%s", e.efficiencyExpected(),
                        e.efficiencyLow(), e.efficiencyHigh(), e.unfinished() > 0 ? "*" : " "));
            }
            System.out.println(line);
        }
        System.out.println(crossover.isPresent()
                ? String.format(Locale.ROOT, "crossover: replication overtakes checkpointing at %.0f processes "
                        + "(system MTBF %.0f s)", crossover.getAsDouble(),
                        scenario.mtbfPerProcessSeconds() / crossover.getAsDouble())
                : "crossover: none in this range");
        System.out.println("(expected efficiency [10th-90th percentile of single runs]; * some runs stopped at 50x the work)");
    }

    private static String crossoverRow(Scenario scenario, List<ProjectionPoint> points, OptionalDouble crossover) {
        if (crossover.isEmpty()) {
            ProjectionPoint first = points.get(0);
            boolean checkpointing = first.estimate().efficiencyExpected() >= Math.max(
                    points.get(1).estimate().efficiencyExpected(), points.get(2).estimate().efficiencyExpected());
            String leader = checkpointing ? "checkpoint_restart" : "replication";
            return scenario.name() + ",,," + leader + "," + leader;
        }
        return String.format(Locale.ROOT, "%s,%.0f,%.0f,checkpoint_restart,replication", scenario.name(),
                crossover.getAsDouble(), scenario.mtbfPerProcessSeconds() / crossover.getAsDouble());
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}

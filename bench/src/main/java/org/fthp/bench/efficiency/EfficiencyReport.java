package org.fthp.bench.efficiency;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.efficiency.ExpectedEfficiency;
import org.fthp.model.sim.FailureClock;
import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.sim.TimelineSimulator;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;
import org.fthp.model.strategy.Strategy;

/**
 * The report of bench/efficiency.sh: reads every run under {@code RESULTS/<mode>/seed-<n>/}, writes
 * {@code RESULTS/calibration.properties} from them, and prints the measured efficiency of each mode next to the
 * model's prediction for the same processes, per-process MTBF, Weibull shape and work, run on that calibration.
 *
 * <pre>
 * EfficiencyReport RESULTS_DIR [--shape K] [--model-runs N] [--model-seed S]
 * </pre>
 */
public final class EfficiencyReport {

    private EfficiencyReport() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args[0].startsWith("-")) {
            System.err.println("usage: EfficiencyReport RESULTS_DIR [--shape K] [--model-runs N] [--model-seed S]");
            System.exit(2);
        }
        Path results = Path.of(args[0]);
        double shape = 0.7;
        int modelRuns = 4000;
        long modelSeed = 2026;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--shape" -> shape = Double.parseDouble(args[i + 1]);
                case "--model-runs" -> modelRuns = Integer.parseInt(args[i + 1]);
                case "--model-seed" -> modelSeed = Long.parseLong(args[i + 1]);
                default -> {
                    System.err.println("EfficiencyReport: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        Experiment experiment = new Experiment(readRuns(results));
        Path calibrationFile = results.resolve("calibration.properties");
        Files.writeString(calibrationFile, Calibrator.properties(experiment));
        Calibration calibration = Calibration.load(calibrationFile);   // what fthp-plan will read
        print(System.out, experiment, calibration, shape, modelRuns, modelSeed);
        System.out.println();
        System.out.println("Calibration written to " + calibrationFile + " (use: bin/fthp-plan --calibration "
                + calibrationFile + " ...)");
    }

    static List<RunRecord> readRuns(Path results) throws IOException {
        List<RunRecord> runs = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            Path dir = results.resolve(mode.directory());
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> seeds = Files.list(dir)) {
                for (Path run : seeds.filter(d -> Files.exists(d.resolve("run.properties"))).sorted().toList()) {
                    runs.add(RunParser.read(run));
                }
            }
        }
        return runs;
    }

    static void print(PrintStream out, Experiment e, Calibration calibration, double shape, int modelRuns,
                      long modelSeed) {
        int p = e.processes();
        double work = e.medianWall(Mode.BASELINE);
        double mtbf = e.runs(Mode.CHECKPOINT_RESTART).stream().map(RunRecord::mtbfPerProcessSeconds).findFirst()
                .orElse(Double.NaN);
        Machine machine = Double.isNaN(mtbf) ? null : new Machine(p, mtbf, shape, Strikes.LIVE_PROCESSES);
        out.printf(Locale.ROOT, "%s on %d processes; per-process MTBF %.0f s (system MTBF %.1f s), Weibull shape %.2f; "
                        + "work: the baseline's median wall time, %.1f s%n%n", e.app(), p, mtbf, mtbf / p, shape, work);
        out.println("| mode | runs | failures (median) | restarts (total) | efficiency median [min–max] "
                + "| model: median [10–90 %] | time split: useful / ckpt / restart / rollback / trim |");
        out.println("| --- | ---: | ---: | ---: | --- | --- | --- |");
        for (Mode mode : Mode.values()) {
            List<RunRecord> runs = e.runs(mode);
            if (runs.isEmpty()) {
                continue;
            }
            Stats eff = e.efficiency(mode);
            Stats failures = Stats.of(runs.stream().map(r -> (double) r.failures()).toList());
            int restarts = runs.stream().mapToInt(RunRecord::restarts).sum();
            long unfinished = runs.stream().filter(r -> !r.completed() || !e.sameAnswer(r)).count();
            MeasuredSplit s = e.meanSplit(mode);
            out.printf(Locale.ROOT, "| %s | %d%s | %s | %d | %.3f [%.3f–%.3f] | %s | %s |%n", mode.label(),
                    runs.size(), unfinished > 0 ? " (" + unfinished + " unfinished)" : "", number(failures.median()),
                    restarts, eff.median(), eff.min(), eff.max(), prediction(mode, e, calibration, machine, work,
                            modelRuns, modelSeed), shares(s));
        }
        out.println();
        out.println("Seconds per run (mean): wall, and the split; the restart column is the remainder (start-up "
                + "after restarts, restores, noise); checkpoint interval and cost as the primary announced them. "
                + "Under each failure mode, the model's mean over its simulated runs on the calibration.");
        out.println();
        out.println("| mode | wall | useful | checkpoints | restart (remainder) | lost work | relaunch | repair "
                + "| log trim | failures | interval (median) | checkpoint cost (median) | load before (median) |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Mode mode : Mode.values()) {
            List<RunRecord> runs = e.runs(mode);
            if (runs.isEmpty()) {
                continue;
            }
            MeasuredSplit s = e.meanSplit(mode);
            double wall = runs.stream().mapToDouble(RunRecord::wallSeconds).average().orElse(Double.NaN);
            Stats interval = Stats.of(runs.stream().map(RunRecord::intervalSeconds).toList());
            List<Double> costs = new ArrayList<>();
            runs.forEach(r -> costs.addAll(r.checkpointCosts()));
            Stats cost = Stats.of(costs);
            Stats load = Stats.of(runs.stream().map(RunRecord::loadBefore).toList());
            double failures = runs.stream().mapToInt(RunRecord::failures).average().orElse(Double.NaN);
            out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.2f | %.3f | %.1f | %s | %s | %s |%n",
                    mode.label(), wall, s.useful(), s.checkpoint(), s.restart(), s.lostWork(), s.relaunch(),
                    s.repair(), s.logTrim(), failures, seconds(interval.median()), seconds(cost.median()),
                    number(load.median()));
            if (machine != null && mode.strategy().isPresent()) {
                Setup setup = Setup.of(mode.strategy().get(), machine, calibration, 1.0);
                MonteCarlo.Estimate est = MonteCarlo.estimate(injected(setup, machine, work), modelRuns,
                        modelSeed);
                var m = est.split();
                out.printf(Locale.ROOT, "| *model:* %s | %.1f | %.1f | %.2f | %.1f (relaunch + restore) | %.1f | – | %.2f "
                                + "| %.3f | %.1f | %s | %s | |%n", mode.label(), est.makespanMean(), m.useful(),
                        m.checkpoint(), m.restart(), m.lostWork(), m.repair(), m.logTrim(), est.failuresMean(),
                        setup.strategy().checkpoints() ? seconds(setup.intervalSeconds()) : "–",
                        setup.strategy().checkpoints() ? seconds(setup.checkpointSeconds()) : "–");
            }
        }
        out.println();
        out.println("Per run: mode seed exit wall(s) failures restarts checkpoints efficiency");
        for (Mode mode : Mode.values()) {
            for (RunRecord r : e.runs(mode)) {
                out.printf(Locale.ROOT, "    %-24s seed %-3d exit %d  %7.1f s  %2d failures  %2d restarts  %3d checkpoints"
                                + "  %.3f%s%n", mode.directory(), r.seed(), r.exitCode(), r.wallSeconds(), r.failures(),
                        r.restarts(), r.checkpointCosts().size(), e.efficiency(r), !r.completed() ? "  (unfinished)"
                                : e.sameAnswer(r) ? "" : "  (a result other than the failure-free run's)");
            }
        }
    }

    /** The model's efficiency for a mode: simulated runs (median and 10–90 %) and the closed form. */
    static String prediction(Mode mode, Experiment e, Calibration calibration, Machine machine, double work,
                             int runs, long seed) {
        Optional<Strategy> strategy = mode.strategy();
        if (strategy.isEmpty()) {
            if (mode == Mode.BASELINE) {
                return "1 (the definition)";
            }
            return String.format(Locale.ROOT, "%.3f (½ / (1 + overhead))",
                    (double) (e.processes() / 2) / e.processes() / (1 + calibration.replicationOverhead()));
        }
        if (machine == null) {
            return "–";
        }
        Setup setup = Setup.of(strategy.get(), machine, calibration, 1.0);
        MonteCarlo.Estimate est = MonteCarlo.estimate(injected(setup, machine, work), runs, seed);
        return String.format(Locale.ROOT, "%.3f [%.3f–%.3f]; mean %.3f, closed form %.3f%s", est.efficiencyMedian(),
                est.efficiencyLow(), est.efficiencyHigh(), est.efficiencyExpected(),
                ExpectedEfficiency.of(setup, machine, work),
                setup.strategy().checkpoints() ? String.format(Locale.ROOT, "; interval %.1f s", setup.intervalSeconds())
                        : "");
    }

    /**
     * The job as the experiment ran it: fthp-run's injector strikes only a
     * running incarnation, with a fresh stream each (the projections keep the
     * machine's clock, under which restarts are struck too).
     */
    private static TimelineSimulator injected(Setup setup, Machine machine, double work) {
        return new TimelineSimulator(setup, machine, work).with(FailureClock.INJECTOR);
    }

    static String shares(MeasuredSplit s) {
        double t = s.total();
        if (!(t > 0)) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f / %.0f / %.1f %%", 100 * s.useful() / t,
                100 * s.checkpoint() / t, 100 * s.restart() / t, 100 * s.rollback() / t, 100 * s.logTrim() / t);
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, v == Math.rint(v) ? "%.0f" : "%.1f", v);
    }

    private static String seconds(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.3f s", v);
    }
}

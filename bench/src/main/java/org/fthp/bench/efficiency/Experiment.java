package org.fthp.bench.efficiency;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of one bench/efficiency.sh experiment, by mode, and the paper's efficiency of each run.
 *
 * <p>Efficiency (§VII): useful work per core per second of a run over that of the failure-free unreplicated run on
 * the same cores. Every mode runs on the same P processes with the same local problem per rank and the same amount
 * of it (weak scaling, as the paper's HPCG runs: each rank has its own block; HPCG's timed sets, CloverLeaf's steps),
 * so the replicated modes' P/2 logical ranks do half the work; the work is what the application reports (HPCG's
 * floating-point operations of the timed sets, CloverLeaf's cell updates), counted once per logical rank (a
 * replica's copy is redundant):
 *
 * <pre>
 *   efficiency = (work_run / (wall_run · P)) / (work_baseline / (wall_baseline · P))
 * </pre>
 *
 * with the baseline's median work and wall time. A run that did not finish with a valid result kept no work:
 * efficiency 0; so did one whose result differs from the failure-free run's of the same layout (CloverLeaf's field
 * summaries, compared bitwise), since failures must not change the answer.
 */
public final class Experiment {

    private final Map<Mode, List<RunRecord>> byMode = new EnumMap<>(Mode.class);

    public Experiment(List<RunRecord> runs) {
        for (RunRecord r : runs) {
            byMode.computeIfAbsent(r.mode(), m -> new ArrayList<>()).add(r);
        }
        List<RunRecord> baseline = runs(Mode.BASELINE);
        if (baseline.stream().noneMatch(RunRecord::completed)) {
            throw new IllegalArgumentException("no completed failure-free baseline run: nothing to compare with");
        }
        int processes = baseline.get(0).processes();
        for (RunRecord r : runs) {
            if (r.processes() != processes) {
                throw new IllegalArgumentException(r.mode().directory() + " seed " + r.seed() + " ran "
                        + r.processes() + " processes, the baseline " + processes + ": not comparable");
            }
        }
    }

    public List<RunRecord> runs(Mode mode) {
        return byMode.getOrDefault(mode, List.of());
    }

    public int processes() {
        return runs(Mode.BASELINE).get(0).processes();
    }

    /** Median wall time of a mode's completed runs (NaN if none). */
    public double medianWall(Mode mode) {
        return Stats.of(runs(mode).stream().filter(RunRecord::completed).map(RunRecord::wallSeconds).toList()).median();
    }

    public double baselineWork() {
        return Stats.of(runs(Mode.BASELINE).stream().filter(RunRecord::completed).map(RunRecord::work)
                .toList()).median();
    }

    /**
     * Whether a run's result is the failure-free one of its layout: the same digest as the first completed
     * failure-free run's (true where the application has no digest, or no failure-free run of that layout finished).
     */
    public boolean sameAnswer(RunRecord run) {
        if (run.answer().isEmpty()) {
            return true;
        }
        return runs(run.mode().failureFree()).stream().filter(RunRecord::completed).findFirst()
                .map(reference -> reference.answer().equals(run.answer())).orElse(true);
    }

    public double efficiency(RunRecord run) {
        if (!run.completed() || !sameAnswer(run)) {
            return 0;
        }
        return run.work() / baselineWork() * medianWall(Mode.BASELINE) / run.wallSeconds();
    }

    /** The application the runs ran. */
    public String app() {
        return runs(Mode.BASELINE).get(0).app();
    }

    public Stats efficiency(Mode mode) {
        return Stats.of(runs(mode).stream().map(this::efficiency).toList());
    }

    /** A run's time split; the failure-free wall of its layout is the useful part. */
    public MeasuredSplit split(RunRecord run) {
        double reference = medianWall(run.mode().failureFree());
        return MeasuredSplit.of(run, Double.isNaN(reference) ? run.wallSeconds() : reference);
    }

    /** Mean split over a mode's runs. */
    public MeasuredSplit meanSplit(Mode mode) {
        MeasuredSplit sum = new MeasuredSplit(0, 0, 0, 0, 0, 0, 0);
        for (RunRecord r : runs(mode)) {
            sum = sum.plus(split(r));
        }
        return runs(mode).isEmpty() ? sum : sum.times(1.0 / runs(mode).size());
    }
}

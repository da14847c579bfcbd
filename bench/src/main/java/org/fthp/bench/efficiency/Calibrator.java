package org.fthp.bench.efficiency;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The model's calibration (model/README.md, keys of {@code org.fthp.model.calibration.Calibration}) from the
 * measured runs, as a properties text with the figures it came from in comments.
 *
 * <ul>
 * <li>checkpoint.seconds: median cost of a committed checkpoint with P ranks (checkpoint/restart runs);
 * checkpoint.scaling from the ratio to the median cost with P/2 ranks (replication + checkpoints runs), clamped to
 * [0, 2]; 0 when either is missing.
 * <li>restore.seconds: not measured apart (a restarted program's start-up and its reading of the piece happen
 * before fthp-run can see anything): taken as one checkpoint write, the calibration's own default.
 * <li>relaunch.seconds: per restart of the checkpointing modes, fthp-run's relaunch plus the remainder of the time
 * split (the relaunched program's start-up), less the restore; median over runs that restarted.
 * <li>repair.seconds: median of the runs' median survivor repair times.
 * <li>replication.overhead: failure-free replicated wall time over the baseline's, minus 1 (weak scaling: each
 * process has the same block to work on), at least 0.
 * <li>logtrim.fraction: median of log trimming time over wall time in the replicated modes.
 * </ul>
 */
public final class Calibrator {

    private Calibrator() {}

    public static String properties(Experiment e) {
        int p = e.processes();
        Stats costP = Stats.of(costs(e, Mode.CHECKPOINT_RESTART));
        Stats costHalf = Stats.of(costs(e, Mode.REPLICATION_CHECKPOINT));
        double checkpoint = !Double.isNaN(costP.median()) ? costP.median() : costHalf.median();
        if (Double.isNaN(checkpoint) || checkpoint <= 0) {
            throw new IllegalArgumentException("no committed checkpoint with a cost in any run: cannot calibrate");
        }
        double scaling = 0;
        if (costP.count() > 0 && costHalf.count() > 0 && costHalf.median() > 0) {
            scaling = Math.log(costP.median() / costHalf.median()) / Math.log(2);
            scaling = Math.max(0, Math.min(2, scaling));
        }
        double restore = checkpoint;
        List<Double> perRestart = new ArrayList<>();
        for (Mode m : new Mode[] {Mode.CHECKPOINT_RESTART, Mode.REPLICATION_CHECKPOINT}) {
            for (RunRecord r : e.runs(m)) {
                if (r.restarts() > 0 && r.completed()) {
                    MeasuredSplit s = e.split(r);
                    perRestart.add(Math.max(0, (s.relaunch() + Math.max(0, s.restart())) / r.restarts() - restore));
                }
            }
        }
        Stats relaunch = Stats.of(perRestart);
        List<Double> repairs = new ArrayList<>();
        List<Double> trims = new ArrayList<>();
        for (Mode m : Mode.values()) {
            if (!m.replicated()) {
                continue;
            }
            for (RunRecord r : e.runs(m)) {
                if (r.repairs() > 0) {
                    repairs.add(r.repairMedianMs() / 1000);
                }
                if (r.completed()) {
                    trims.add(r.logTrimSeconds() / r.wallSeconds());
                }
            }
        }
        double overhead = Math.max(0, e.medianWall(Mode.REPLICATED_FREE) / e.medianWall(Mode.BASELINE) - 1);
        if (Double.isNaN(overhead)) {
            overhead = 0;
        }
        StringBuilder b = new StringBuilder();
        b.append("# measured by bench/efficiency.sh (").append(e.app()).append(", ").append(p).append(" processes); see bench/README.md\n");
        line(b, "ranks", p, "ranks the checkpoint cost was measured with");
        line(b, "checkpoint.seconds", checkpoint, String.format(Locale.ROOT,
                "median of %d commits at %d ranks (%.3f-%.3f s)", costP.count(), p, costP.min(), costP.max()));
        line(b, "checkpoint.scaling", scaling, String.format(Locale.ROOT,
                "log2 of the cost at %d ranks over the cost at %d (median %.3f s of %d commits); clamped to [0, 2]",
                p, p / 2, costHalf.median(), costHalf.count()));
        line(b, "restore.seconds", restore, "not measured apart: one checkpoint write (its start-up is in relaunch)");
        line(b, "relaunch.seconds", Double.isNaN(relaunch.median()) ? 0 : relaunch.median(), String.format(Locale.ROOT,
                "per restart: relaunch + start-up remainder - restore, median of %d runs (%.2f-%.2f s)",
                relaunch.count(), relaunch.min(), relaunch.max()));
        Stats repair = Stats.of(repairs);
        line(b, "repair.seconds", Double.isNaN(repair.median()) ? 0 : repair.median(), String.format(Locale.ROOT,
                "median survivor repair, median of %d runs (%.3f-%.3f s)", repair.count(), repair.min(), repair.max()));
        line(b, "replication.overhead", overhead, String.format(Locale.ROOT,
                "failure-free wall %.2f s replicated vs %.2f s plain", e.medianWall(Mode.REPLICATED_FREE),
                e.medianWall(Mode.BASELINE)));
        Stats trim = Stats.of(trims);
        line(b, "logtrim.fraction", Double.isNaN(trim.median()) ? 0 : trim.median(),
                "log trimming / wall time, replicated runs");
        return b.toString();
    }

    private static List<Double> costs(Experiment e, Mode mode) {
        List<Double> out = new ArrayList<>();
        for (RunRecord r : e.runs(mode)) {
            out.addAll(r.checkpointCosts());
        }
        return out;
    }

    private static void line(StringBuilder b, String key, double value, String why) {
        b.append("# ").append(why).append('\n');
        b.append(key).append('=').append(value == Math.rint(value) && Math.abs(value) < 1e9
                ? Long.toString((long) value) : String.format(Locale.ROOT, "%.6g", value)).append('\n');
    }
}

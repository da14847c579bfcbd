package org.fthp.model.projection;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.sim.TimeSplit;
import org.fthp.model.strategy.Setup;

/** A projection's points as CSV, one row per process count and strategy; shares are of the wall time. */
public final class ProjectionCsv {

    static final String HEADER = "scenario,processes,system_mtbf_s,strategy,ranks,replicated_ranks,mtti_s,"
            + "interval_s,checkpoint_s,restart_s,efficiency_expected,efficiency_median,efficiency_p10,efficiency_p90,"
            + "efficiency_closed_form,makespan_mean_s,useful_share,checkpoint_share,restart_share,"
            + "lost_work_share,repair_share,logtrim_share,failures_mean,interruptions_mean,unfinished_runs,runs";

    private ProjectionCsv() {}

    public static void write(Path file, Scenario scenario, List<ProjectionPoint> points) throws IOException {
        try (Writer out = Files.newBufferedWriter(file)) {
            out.write(HEADER);
            out.write('\n');
            for (ProjectionPoint p : points) {
                out.write(row(scenario, p));
                out.write('\n');
            }
        }
    }

    static String row(Scenario scenario, ProjectionPoint p) {
        Setup s = p.setup();
        MonteCarlo.Estimate e = p.estimate();
        TimeSplit share = e.split().shares();
        return String.format(Locale.ROOT,
                "%s,%d,%.1f,%s,%d,%d,%.1f,%s,%.2f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f,%.1f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%d,%d",
                scenario.name(), p.processes(), p.systemMtbfSeconds(), s.strategy().name().toLowerCase(Locale.ROOT),
                s.ranks(), s.replicatedRanks(), s.mttiSeconds(), finite(s.intervalSeconds()), s.checkpointSeconds(),
                s.restartSeconds(), e.efficiencyExpected(), e.efficiencyMedian(), e.efficiencyLow(), e.efficiencyHigh(), p.closedFormEfficiency(),
                e.makespanMean(), share.useful(), share.checkpoint(), share.restart(), share.lostWork(), share.repair(),
                share.logTrim(), e.failuresMean(), e.interruptionsMean(), e.unfinished(), e.runs());
    }

    /** No checkpoint: an empty interval column rather than "Infinity". */
    private static String finite(double seconds) {
        return Double.isInfinite(seconds) ? "" : String.format(Locale.ROOT, "%.1f", seconds);
    }
}

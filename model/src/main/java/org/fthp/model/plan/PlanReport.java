package org.fthp.model.plan;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.sim.TimeSplit;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;
import org.fthp.model.strategy.Strategy;

/** The planner's answer in a few readable lines: inputs, a table of candidates, the pick and why. */
final class PlanReport {

    private final PlanArguments arguments;
    private final Machine machine;
    private final List<Candidate> ranked;

    PlanReport(PlanArguments arguments, Machine machine, List<Candidate> ranked) {
        this.arguments = arguments;
        this.machine = machine;
        this.ranked = ranked;
    }

    void print(PrintStream out) {
        Calibration c = arguments.calibration();
        int p = machine.processes();
        out.printf(Locale.ROOT, "FTHP-J plan: %d processes, %s of work%n", p, Durations.format(arguments.workSeconds()));
        out.printf(Locale.ROOT, "  failures: per-process MTBF %s, so one every %s somewhere (Weibull shape %.2g, %s)%n",
                Durations.format(machine.mtbfPerProcessSeconds()), Durations.format(machine.systemMtbfSeconds()),
                machine.shape(), machine.strikes() == org.fthp.model.Strikes.ANY_PROCESS
                        ? "dead processes may be struck" : "only live processes struck");
        out.printf(Locale.ROOT, "  costs: checkpoint %s at %d ranks (~ ranks^%.2f), restart %s%s, repair %s, "
                        + "replication overhead %.1f %%%n",
                Durations.format(c.checkpointSeconds(p)), p, c.checkpointScaling(), Durations.format(c.restartSeconds(p)),
                arguments.restartAssumed() ? " (assumed: restore = checkpoint, + 30 s relaunch)" : "",
                Durations.format(c.repairSeconds()), 100 * c.replicationOverhead());
        out.println();
        out.printf(Locale.ROOT, "  %-44s %17s %12s %18s %11s  %s%n", "strategy", "ranks + replicas", "MTTI",
                "checkpoint every", "efficiency", "[10-90 % of runs]");
        for (Candidate candidate : ranked) {
            Setup s = candidate.setup();
            MonteCarlo.Estimate e = candidate.estimate();
            out.printf(Locale.ROOT, "  %-44s %17s %12s %18s %11.3f  [%.3f-%.3f]%s%n", candidate.label(),
                    s.ranks() + " + " + s.replicatedRanks(), Durations.format(s.mttiSeconds()),
                    s.strategy().checkpoints() ? Durations.format(s.intervalSeconds()) : "none",
                    candidate.efficiency(), e.efficiencyLow(), e.efficiencyHigh(),
                    e.unfinished() > 0 ? "  (some runs never finished)" : "");
        }
        out.println();
        Candidate best = ranked.get(0);
        Setup s = best.setup();
        out.printf(Locale.ROOT, "Recommended: %s%s%n", best.label(), s.strategy().checkpoints()
                ? String.format(Locale.ROOT, ", a checkpoint every %s of work (%.0f s, Daly)",
                        Durations.format(s.intervalSeconds()), s.intervalSeconds())
                : s.strategy().replicates() ? ", no checkpoint" : "");
        out.printf(Locale.ROOT, "  replication degree %s: fthp-run -np %d%s%n",
                s.replicatedRanks() == 0 ? "0" : String.format(Locale.ROOT, "%.2f", (double) s.replicatedRanks() / s.ranks()),
                s.ranks(), s.replicatedRanks() == 0 ? "" : " --replicas " + s.replicatedRanks());
        out.println("Why:");
        for (String reason : reasons()) {
            out.println("  - " + reason);
        }
    }

    List<String> reasons() {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        Candidate best = ranked.get(0);
        Candidate checkpointing = find(Strategy.CHECKPOINT_RESTART);
        Setup cr = checkpointing.setup();
        TimeSplit share = checkpointing.estimate().split().shares();
        if (cr.checkpointSeconds() >= 2 * cr.mttiSeconds()) {
            out.add(String.format(Locale.ROOT, "a checkpoint (%s) takes longer than two MTTIs (%s): checkpoint/restart "
                    + "can hardly make progress", Durations.format(cr.checkpointSeconds()),
                    Durations.format(cr.mttiSeconds())));
        }
        out.add(String.format(Locale.ROOT, "checkpoint/restart is interrupted every %s on average; it spends "
                        + "%.0f %% of its time writing checkpoints, %.0f %% restarting and %.0f %% redoing lost work "
                        + "(efficiency %.2f)", Durations.format(cr.mttiSeconds()), 100 * share.checkpoint(),
                100 * share.restart(), 100 * share.lostWork(), checkpointing.efficiency()));
        Candidate replication = best.setup().strategy().replicates() ? best : bestReplicated();
        Setup r = replication.setup();
        out.add(String.format(Locale.ROOT, "%s gives %.0f %% of the processes to replicas, but the job survives "
                        + "%s between interruptions (%.2f interruptions per run on average; efficiency %.2f)",
                replication.label(), 100 * (1 - r.workingShare()), Durations.format(r.mttiSeconds()),
                replication.estimate().interruptionsMean(), replication.efficiency()));
        Candidate runnerUp = ranked.get(1);
        double margin = best.efficiency() / runnerUp.efficiency() - 1;
        out.add(String.format(Locale.ROOT, "next best: %s at %.3f (%s)", runnerUp.label(), runnerUp.efficiency(),
                margin < 0.02 ? "practically tied: prefer the simpler of the two"
                        : String.format(Locale.ROOT, "%.0f %% less work per process", 100 * (1 - 1 / (1 + margin)))));
        return out;
    }

    private Candidate find(Strategy strategy) {
        return ranked.stream().filter(c -> c.setup().strategy() == strategy).findFirst().orElseThrow();
    }

    private Candidate bestReplicated() {
        return ranked.stream().filter(c -> c.setup().strategy().replicates()).findFirst().orElseThrow();
    }
}

package org.fthp.model.plan;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.sim.TimeSplit;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Recovery;
import org.fthp.model.strategy.SilentErrors;
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
        Recovery recovery = arguments.recovery();
        if (recovery.hasSpares()) {
            out.printf(Locale.ROOT, "  spares: %d kept by the strategies with checkpoints, in-place rollback %s "
                            + "(a relaunch when none is free), replicas %s%n", recovery.spares(),
                    Durations.format(recovery.rollbackSeconds()),
                    recovery.restoreReplicas() ? "restored from spares at each commit" : "not restored");
        }
        SilentErrors sdc = arguments.silentErrors();
        boolean showSdc = sdc.any();
        if (showSdc) {
            out.printf(Locale.ROOT, "  silent corruption: %.3g per process per hour; replicated ranks' twins %s; "
                            + "ranked by efficiency x share of right runs%n", sdc.ratePerProcessHour(),
                    sdc.twinComparison() ? "compare and roll back on a mismatch" : "do not compare (--sdc off)");
        }
        out.println();
        out.printf(Locale.ROOT, "  %-44s %17s %12s %18s %11s  %-19s%s%n", "strategy",
                recovery.hasSpares() ? "ranks+repl.+spares" : "ranks + replicas", "MTTI",
                "checkpoint every", "efficiency", "[10-90 % of runs]", showSdc ? "  silently wrong" : "");
        for (Candidate candidate : ranked) {
            Setup s = candidate.setup();
            MonteCarlo.Estimate e = candidate.estimate();
            out.printf(Locale.ROOT, "  %-44s %17s %12s %18s %11.3f  %-19s%s%s%n", candidate.label(),
                    s.ranks() + " + " + s.replicatedRanks() + (s.spares() > 0 ? " + " + s.spares() : ""),
                    Durations.format(s.mttiSeconds()),
                    !s.strategy().checkpoints() ? "none" : s.restoresReplicas()
                            ? Durations.format(s.intervalSeconds()) + " " + candidate.intervalRule()
                            : Durations.format(s.intervalSeconds()),
                    candidate.efficiency(), String.format(Locale.ROOT, "[%.3f-%.3f]", e.efficiencyLow(),
                            e.efficiencyHigh()),
                    showSdc ? String.format(Locale.ROOT, "  %13s", percent(candidate.silentlyWrongShare())) : "",
                    e.unfinished() > 0 ? "  (some runs never finished)" : "");
        }
        out.println();
        Candidate best = ranked.get(0);
        Setup s = best.setup();
        out.printf(Locale.ROOT, "Recommended: %s%s%n", best.label(), s.strategy().checkpoints()
                ? String.format(Locale.ROOT, ", a checkpoint every %s of work (%.0f s, %s)",
                        Durations.format(s.intervalSeconds()), s.intervalSeconds(), best.intervalRule().equals("Daly")
                                ? "Daly" : "optimal with replicas restored at each commit")
                : s.strategy().replicates() ? ", no checkpoint" : "");
        out.printf(Locale.ROOT, "  replication degree %s: fthp-run -np %d%s%s%s%n",
                s.replicatedRanks() == 0 ? "0" : String.format(Locale.ROOT, "%.2f", (double) s.replicatedRanks() / s.ranks()),
                s.ranks(), s.replicatedRanks() == 0 ? "" : " --replicas " + s.replicatedRanks(),
                s.spares() > 0 ? " --spares " + s.spares() : "",
                s.replicatedRanks() > 0 && !sdc.twinComparison() ? " --sdc off" : "");
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
        if (arguments.recovery().hasSpares()) {
            Candidate kept = best.setup().spares() > 0 ? best : checkpointing;
            out.add(String.format(Locale.ROOT, "%s keeps %d spare(s): %.2f in-place rollbacks per run at %s instead of "
                            + "relaunches at %s%s", kept.label(), kept.setup().spares(),
                    kept.estimate().rollbacksMean(), Durations.format(arguments.recovery().rollbackSeconds()),
                    Durations.format(kept.setup().restartSeconds()), kept.setup().restoresReplicas()
                            ? String.format(Locale.ROOT, ", replicas restored at %.2f commits per run%s",
                                    kept.estimate().restorationsMean(), kept.intervalRule().equals("Daly")
                                            ? " (spares run out: Daly's interval beat the restored optimum)" : "")
                            : ""));
        }
        if (arguments.silentErrors().any()) {
            Candidate guarded = best.setup().strategy().replicates() ? best : bestReplicated();
            out.add(String.format(Locale.ROOT, "silent corruption: checkpoint/restart ends silently wrong in %s of runs "
                            + "(nothing checks its %d ranks); %s in %s (%s)", percent(checkpointing.silentlyWrongShare()),
                    cr.ranks(), guarded.label(), percent(guarded.silentlyWrongShare()),
                    arguments.silentErrors().twinComparison()
                            ? "twins compare; unreplicated ranks and ranks whose replica is dead are not covered"
                            : "twins do not compare: every copy is exposed"));
        }
        Candidate runnerUp = ranked.get(1);
        double margin = best.score() / runnerUp.score() - 1;
        out.add(String.format(Locale.ROOT, "next best: %s at %.3f (%s)", runnerUp.label(), runnerUp.efficiency(),
                margin < 0.02 ? "practically tied: prefer the simpler of the two"
                        : String.format(Locale.ROOT, "%.0f %% less %swork per process", 100 * (1 - 1 / (1 + margin)),
                                arguments.silentErrors().any() ? "right " : "")));
        return out;
    }

    /** 12 %, 0.3 %, 0.0004 %: enough digits to tell small shares apart. */
    static String percent(double share) {
        if (Double.isNaN(share)) {
            return "-";   // no run finished
        }
        double p = 100 * share;
        if (p == 0) {
            return "0 %";
        }
        return p >= 10 ? String.format(Locale.ROOT, "%.0f %%", p) : String.format(Locale.ROOT, "%.2g %%", p);
    }

    private Candidate find(Strategy strategy) {
        return ranked.stream().filter(c -> c.setup().strategy() == strategy).findFirst().orElseThrow();
    }

    private Candidate bestReplicated() {
        return ranked.stream().filter(c -> c.setup().strategy().replicates()).findFirst().orElseThrow();
    }
}

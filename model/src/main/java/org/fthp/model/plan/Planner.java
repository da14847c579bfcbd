package org.fthp.model.plan;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.fthp.model.CheckpointInterval;
import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.sim.TimelineSimulator;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;
import org.fthp.model.strategy.Strategy;

/**
 * The planner a user runs before a job: given the processes, their MTBF and the
 * measured checkpoint cost, it simulates checkpoint/restart, replication of
 * 25/50/75/100 % of the ranks with and without checkpoints, and prints what to
 * run ({@code fthp-run -np N --replicas M}, checkpoint interval), the expected
 * efficiency of each, and why. Exit 0, or 2 on bad arguments.
 *
 * <p>With spares, the strategies with checkpoints keep them (out of the
 * processes) and roll back in place at the measured rollback cost while one is
 * free; with replicas restored at each commit, the interval is the one that
 * minimises the restored model's expected time, and Daly's from the ageing job's
 * MTTI is simulated too: the better of the two is kept (when spares run out the
 * job ages again). With a silent corruption rate, candidates are ranked by
 * efficiency times the share of runs that end right.
 */
public final class Planner {

    static final double[] DEGREES = {0.25, 0.5, 0.75, 1};
    /** Runs that make no progress stop at this many times the work (their efficiency is below 2 %). */
    static final double CAP_FACTOR = 50;

    private final PlanArguments arguments;

    public Planner(PlanArguments arguments) {
        this.arguments = arguments;
    }

    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println(PlanArguments.USAGE);
            return;
        }
        PlanArguments arguments;
        try {
            arguments = PlanArguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("fthp-plan: " + e.getMessage() + " (fthp-plan --help lists the options)");
            System.exit(2);
            return;
        }
        Planner planner = new Planner(arguments);
        new PlanReport(arguments, planner.machine(), planner.candidates()).print(System.out);
    }

    public Machine machine() {
        return new Machine(arguments.processes(), arguments.mtbfPerProcessSeconds(), arguments.shape(),
                arguments.strikes());
    }

    /** Every candidate, best expected efficiency first. */
    public List<Candidate> candidates() {
        Machine machine = machine();
        List<Candidate> out = new ArrayList<>();
        out.add(evaluate(Strategy.CHECKPOINT_RESTART, machine, 1));
        int computing = machine.processes() - arguments.recovery().spares();
        for (double degree : DEGREES) {
            if (machine.processes() - (int) Math.ceil(machine.processes() / (1 + degree)) >= 1) {
                out.add(evaluate(Strategy.REPLICATION, machine, degree));
            }
            if (computing - (int) Math.ceil(computing / (1 + degree)) >= 1) {
                out.add(evaluate(Strategy.REPLICATION_CHECKPOINT, machine, degree));
            }   // else too few processes for a replica at this degree
        }
        out.sort(Comparator.comparingDouble(Candidate::score).reversed());
        return out;
    }

    private Candidate evaluate(Strategy strategy, Machine machine, double degree) {
        Setup setup = Setup.of(strategy, machine, arguments.calibration(), degree, arguments.recovery(),
                arguments.silentErrors());
        Candidate planned = simulate(setup, degree, setup.restoresReplicas() ? "restored" : "Daly");
        if (!setup.restoresReplicas()) {
            return planned;
        }
        Candidate daly = simulate(setup.withInterval(CheckpointInterval.daly(setup.checkpointSeconds(),
                setup.mttiSeconds())), degree, "Daly");
        return daly.score() > planned.score() ? daly : planned;
    }

    private Candidate simulate(Setup setup, double degree, String intervalRule) {
        TimelineSimulator simulator = new TimelineSimulator(setup, machine(), arguments.workSeconds(), CAP_FACTOR);
        return new Candidate(setup, degree, MonteCarlo.estimate(simulator, arguments.runs(), arguments.seed()),
                intervalRule);
    }

    /** For a caller that prints elsewhere (tests). */
    public void printTo(PrintStream out) {
        new PlanReport(arguments, machine(), candidates()).print(out);
    }
}

package org.fthp.model.plan;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
            System.err.println("fthp-plan: " + e.getMessage());
            System.err.println(PlanArguments.USAGE);
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
        for (double degree : DEGREES) {
            if (machine.processes() - (int) Math.ceil(machine.processes() / (1 + degree)) < 1) {
                continue;   // too few processes for a replica at this degree
            }
            out.add(evaluate(Strategy.REPLICATION, machine, degree));
            out.add(evaluate(Strategy.REPLICATION_CHECKPOINT, machine, degree));
        }
        out.sort(Comparator.comparingDouble(Candidate::efficiency).reversed());
        return out;
    }

    private Candidate evaluate(Strategy strategy, Machine machine, double degree) {
        Setup setup = Setup.of(strategy, machine, arguments.calibration(), degree);
        TimelineSimulator simulator = new TimelineSimulator(setup, machine, arguments.workSeconds(), CAP_FACTOR);
        return new Candidate(setup, degree, MonteCarlo.estimate(simulator, arguments.runs(), arguments.seed()));
    }

    /** For a caller that prints elsewhere (tests). */
    public void printTo(PrintStream out) {
        new PlanReport(arguments, machine(), candidates()).print(out);
    }
}

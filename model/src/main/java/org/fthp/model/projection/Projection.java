package org.fthp.model.projection;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.fthp.model.efficiency.ExpectedEfficiency;
import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.sim.TimelineSimulator;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;
import org.fthp.model.strategy.Strategy;

/** A scenario's strategies simulated at each of its process counts, and where replication takes over. */
public final class Projection {

    /** Runs that have not finished after this many times their work stop: their efficiency is below 2 %. */
    static final double CAP_FACTOR = 50;

    private final Scenario scenario;
    private final int runs;
    private final long seed;

    public Projection(Scenario scenario, int runs, long seed) {
        if (runs < 2) {
            throw new IllegalArgumentException("need at least 2 runs per point, not " + runs);
        }
        this.scenario = scenario;
        this.runs = runs;
        this.seed = seed;
    }

    /** Every strategy at every process count, in process order then strategy order. */
    public List<ProjectionPoint> points() {
        List<ProjectionPoint> out = new ArrayList<>();
        for (int processes : scenario.processes()) {
            for (Strategy strategy : Strategy.values()) {
                out.add(point(strategy, processes));
            }
        }
        return out;
    }

    public ProjectionPoint point(Strategy strategy, int processes) {
        Machine machine = scenario.machine(processes);
        Setup setup = Setup.of(strategy, machine, scenario.calibration(), scenario.degree());
        TimelineSimulator simulator = new TimelineSimulator(setup, machine, scenario.workSeconds(), CAP_FACTOR);
        // the same seed at every point and strategy: common random numbers keep comparisons steady
        MonteCarlo.Estimate estimate = MonteCarlo.estimate(simulator, runs, seed);
        return new ProjectionPoint(processes, machine.systemMtbfSeconds(), setup, estimate,
                ExpectedEfficiency.of(setup, machine, scenario.workSeconds()));
    }

    /**
     * The process count at which the better replication strategy's expected
     * efficiency first reaches checkpoint/restart's: bisection between the first
     * two counts of the scenario where the lead changes. Empty when it never
     * changes in the scenario's range.
     */
    public OptionalDouble crossoverProcesses() {
        List<Integer> counts = scenario.processes();
        if (replicationLeads(counts.get(0))) {
            return OptionalDouble.empty();
        }
        for (int i = 1; i < counts.size(); i++) {
            if (replicationLeads(counts.get(i))) {
                double low = counts.get(i - 1);
                double high = counts.get(i);
                while (high - low > Math.max(2, low * 0.002)) {
                    double middle = Math.sqrt(low * high);
                    if (replicationLeads(2 * (int) Math.round(middle / 2))) {
                        high = middle;
                    } else {
                        low = middle;
                    }
                }
                return OptionalDouble.of(Math.sqrt(low * high));
            }
        }
        return OptionalDouble.empty();
    }

    private boolean replicationLeads(int processes) {
        double checkpointing = point(Strategy.CHECKPOINT_RESTART, processes).estimate().efficiencyExpected();
        double replication = Math.max(point(Strategy.REPLICATION, processes).estimate().efficiencyExpected(),
                point(Strategy.REPLICATION_CHECKPOINT, processes).estimate().efficiencyExpected());
        return replication >= checkpointing;
    }
}

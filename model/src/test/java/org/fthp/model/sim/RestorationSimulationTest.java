package org.fthp.model.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.model.CheckpointInterval;
import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.efficiency.ExpectedEfficiency;
import org.fthp.model.efficiency.SilentCorruption;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Recovery;
import org.fthp.model.strategy.Setup;
import org.fthp.model.strategy.SilentErrors;
import org.fthp.model.strategy.Strategy;
import org.junit.jupiter.api.Test;

/**
 * The simulator against the closed forms for spares, rollbacks, replicas
 * restored at each commit and silent corruption: exponential failures that may
 * strike any process, the machine's clock, seeded runs, agreement within four
 * standard errors of the simulated mean makespan.
 */
class RestorationSimulationTest {

    /** Checkpoint 60 s, restore 80 s, relaunch 10 s, no repair, overhead or trimming: the closed forms' terms. */
    private static final Calibration COSTS = new Calibration(64, 60, 0, 80, 10, 0, 0, 0);
    private static final double WORK = 4 * 3600;

    private static void assertAgrees(MonteCarlo.Estimate e, double expectedMakespan) {
        assertTrue(Math.abs(e.makespanMean() - expectedMakespan) < 4 * e.makespanStandardError(),
                "simulated " + e.makespanMean() + " ± " + e.makespanStandardError() + ", closed form " + expectedMakespan);
        assertEquals(0, e.unfinished());
    }

    private static double makespan(Setup setup, Machine machine) {
        return setup.workingShare() * WORK / ExpectedEfficiency.of(setup, machine, WORK);
    }

    /** 64 ranks, all replicated, 1500 spares that do not run out in 4 h; rollback 5 s. */
    private static final Machine MACHINE = new Machine(64 + 64 + 1500, 40_000, 1.0, Strikes.ANY_PROCESS);
    private static final Recovery RESTORING = new Recovery(1500, 5, true);

    @Test
    void replicasRestoredAtEachCommitTakeTheClosedFormsTime() {
        Setup setup = Setup.of(Strategy.REPLICATION_CHECKPOINT, MACHINE, COSTS, 1, RESTORING, SilentErrors.NONE);
        MonteCarlo.Estimate e = MonteCarlo.estimate(new TimelineSimulator(setup, MACHINE, WORK), 4000, 5);
        assertAgrees(e, makespan(setup, MACHINE));
        assertTrue(e.restorationsMean() > 5, "restorations per run " + e.restorationsMean());
        assertTrue(setup.intervalSeconds() > 1.3 * CheckpointInterval.daly(60, setup.mttiSeconds()),
                "restored interval " + setup.intervalSeconds() + " vs Daly's of the ageing job");
    }

    @Test
    void restoredIntervalBeatsDalysInTheSimulator() {
        Setup restored = Setup.of(Strategy.REPLICATION_CHECKPOINT, MACHINE, COSTS, 1, RESTORING, SilentErrors.NONE);
        Setup daly = restored.withInterval(CheckpointInterval.daly(60, restored.mttiSeconds()));
        double atOptimum = MonteCarlo.estimate(new TimelineSimulator(restored, MACHINE, WORK), 2000, 7).efficiencyExpected();
        double atDaly = MonteCarlo.estimate(new TimelineSimulator(daly, MACHINE, WORK), 2000, 7).efficiencyExpected();
        assertTrue(atOptimum > atDaly, atOptimum + " at the restored optimum vs " + atDaly + " at Daly's");
    }

    @Test
    void corruptionsTheTwinsDetectAreRollbacksAndTheRestIsCountedAsWrong() {
        SilentErrors errors = new SilentErrors(2e-5, true);
        Setup setup = Setup.of(Strategy.REPLICATION_CHECKPOINT, MACHINE, COSTS, 1, RESTORING, errors);
        MonteCarlo.Estimate e = MonteCarlo.estimate(new TimelineSimulator(setup, MACHINE, WORK), 4000, 5);
        assertAgrees(e, makespan(setup, MACHINE));
        assertTrue(e.rollbacksMean() > 30, "rollbacks per run " + e.rollbacksMean());
        double closed = SilentCorruption.wrongShare(setup, MACHINE, WORK);
        assertEquals(closed, e.silentlyWrongShare(), 0.05 * closed);

        Setup unchecked = Setup.of(Strategy.REPLICATION_CHECKPOINT, MACHINE, COSTS, 1, RESTORING,
                new SilentErrors(2e-5, false));
        MonteCarlo.Estimate off = MonteCarlo.estimate(new TimelineSimulator(unchecked, MACHINE, WORK), 500, 5);
        assertTrue(off.silentlyWrongShare() > 0.99, "without comparison " + off.silentlyWrongShare());
        Setup clean = Setup.of(Strategy.REPLICATION_CHECKPOINT, MACHINE, COSTS, 1, RESTORING, SilentErrors.NONE);
        assertEquals(MonteCarlo.estimate(new TimelineSimulator(clean.withInterval(unchecked.intervalSeconds()),
                MACHINE, WORK), 500, 5).makespanMean(), off.makespanMean(), "undetected corruptions change no run");
    }

    @Test
    void checkpointRestartEndsWrongWheneverAnyRankIsCorrupted() {
        Machine machine = new Machine(64, 200_000, 1.0, Strikes.ANY_PROCESS);
        double rate = 1e-7;
        Setup setup = Setup.of(Strategy.CHECKPOINT_RESTART, machine, COSTS, 1, Recovery.NONE,
                new SilentErrors(rate, true));
        MonteCarlo.Estimate e = MonteCarlo.estimate(new TimelineSimulator(setup, machine, WORK), 200, 3);
        double exact = -Math.expm1(-rate * 64 * WORK);   // every run keeps exactly the work, on every rank
        assertEquals(exact, e.silentlyWrongShare(), 1e-12);
        assertEquals(exact, SilentCorruption.wrongShare(setup, machine, WORK), 1e-12);
        assertEquals(0, e.rollbacksMean());
    }

    /**
     * Under the injector's clock nothing strikes a recovery, so the restart time
     * is exactly one rollback per rollback and one relaunch + restore per other
     * interruption; one spare runs out, and the relaunch brings it back.
     */
    @Test
    void rollbacksWhileSparesLastThenRelaunches() {
        Machine machine = new Machine(64 + 1, 20_000, 1.0, Strikes.LIVE_PROCESSES);
        Setup setup = Setup.of(Strategy.CHECKPOINT_RESTART, machine, COSTS, 1, new Recovery(1, 5, false),
                SilentErrors.NONE);
        TimelineSimulator simulator = new TimelineSimulator(setup, machine, WORK).with(FailureClock.INJECTOR);
        double restart = 0;
        long rollbacks = 0;
        long interruptions = 0;
        for (long seed = 0; seed < 200; seed++) {
            Timeline t = simulator.run(seed);
            restart += t.split().restart();
            rollbacks += t.rollbacks();
            interruptions += t.interruptions();
        }
        assertTrue(rollbacks > 0 && rollbacks < interruptions, rollbacks + " rollbacks of " + interruptions);
        assertEquals(5.0 * rollbacks + 90.0 * (interruptions - rollbacks), restart, 1e-6 * restart);

        Setup relaunching = Setup.of(Strategy.CHECKPOINT_RESTART, machine, COSTS, 1);
        double withSpare = MonteCarlo.estimate(simulator, 1000, 2).efficiencyExpected();
        double without = MonteCarlo.estimate(new TimelineSimulator(relaunching, machine, WORK)
                .with(FailureClock.INJECTOR), 1000, 2).efficiencyExpected();
        assertTrue(withSpare > without, withSpare + " with a spare, " + without + " relaunching every time");
    }
}

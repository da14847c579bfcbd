package org.fthp.model.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.fthp.model.JobMtti;
import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.efficiency.CheckpointRestart;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;
import org.fthp.model.strategy.Strategy;
import org.junit.jupiter.api.Test;

class TimelineSimulatorTest {

    private static final Calibration COSTS = new Calibration(1000, 60, 0, 80, 10, 2, 0.02, 0.01);

    @Test
    void checkpointRestartUnderExponentialFailuresTakesTheExactExpectedTime() {
        Machine machine = Machine.withSystemMtbf(1000, 1800, 1.0, Strikes.LIVE_PROCESSES);
        Setup setup = Setup.of(Strategy.CHECKPOINT_RESTART, machine, COSTS, 1);
        double work = 8 * 3600;
        MonteCarlo.Estimate e = MonteCarlo.estimate(new TimelineSimulator(setup, machine, work), 20_000, 1);
        double exact = CheckpointRestart.expectedMakespan(work, setup.intervalSeconds(), 60, 90, 1800);
        assertTrue(Math.abs(e.makespanMean() - exact) < 4 * e.makespanStandardError(),
                "simulated " + e.makespanMean() + " ± " + e.makespanStandardError() + ", exact " + exact);
        assertEquals(0, e.unfinished());
    }

    /**
     * Under the injector's clock a restart is never struck, so a chunk of length
     * L (work + checkpoint) takes (μ + R)(e^(L/μ) − 1) on average with
     * exponential failures: each failure costs the time to it plus one restart.
     */
    @Test
    void underTheInjectorsClockRestartsAreNotStruck() {
        Machine machine = Machine.withSystemMtbf(1000, 1800, 1.0, Strikes.LIVE_PROCESSES);
        Setup setup = Setup.of(Strategy.CHECKPOINT_RESTART, machine, COSTS, 1);
        double work = 8 * 3600;
        TimelineSimulator simulator = new TimelineSimulator(setup, machine, work).with(FailureClock.INJECTOR);
        MonteCarlo.Estimate e = MonteCarlo.estimate(simulator, 20_000, 3);
        double tau = setup.intervalSeconds();
        double chunks = Math.ceil(work / tau) - 1;
        double last = work - chunks * tau;
        double exact = (1800 + 90) * (chunks * Math.expm1((tau + 60) / 1800) + Math.expm1(last / 1800));
        assertTrue(Math.abs(e.makespanMean() - exact) < 4 * e.makespanStandardError(),
                "simulated " + e.makespanMean() + " ± " + e.makespanStandardError() + ", exact " + exact);
        assertEquals(90 * e.interruptionsMean(), e.split().restart(), 1e-6 * e.split().restart(),
                "every interruption costs exactly one restart");
        double machineClock = MonteCarlo.estimate(new TimelineSimulator(setup, machine, work), 20_000, 3).makespanMean();
        assertTrue(e.makespanMean() < machineClock, "sheltered restarts " + e.makespanMean() + " vs " + machineClock);
    }

    @Test
    void replicatedJobsAreFirstInterruptedAfterMnftiFailuresWhateverTheShape() {
        for (Strikes strikes : Strikes.values()) {
            Machine machine = Machine.withSystemMtbf(256, 100, 0.7, strikes);
            Calibration costs = new Calibration(128, 1, 0, 1, 1, 0, 0, 0);   // no repair time: failures come at system pace
            Setup setup = Setup.of(Strategy.REPLICATION, machine, costs, 1);
            TimelineSimulator simulator = new TimelineSimulator(setup, machine, 1e12);
            SplittableRandom seeds = new SplittableRandom(5);
            int runs = 20_000;
            double time = 0;
            double timeSquares = 0;
            double failures = 0;
            for (int i = 0; i < runs; i++) {
                Timeline t = simulator.runUntilInterrupted(seeds.nextLong());
                assertEquals(1, t.interruptions());
                time += t.firstInterruptionTime();
                timeSquares += t.firstInterruptionTime() * t.firstInterruptionTime();
                failures += t.failuresToFirstInterruption();
            }
            double mean = time / runs;
            double standardError = Math.sqrt((timeSquares / runs - mean * mean) / runs);
            double mtti = JobMtti.systemStream(128, 128, 100, strikes);
            assertTrue(Math.abs(mean - mtti) < 4 * standardError, strikes + ": " + mean + " ± " + standardError
                    + " vs " + mtti);
            assertEquals(JobMtti.meanFailuresToInterruption(128, 128, strikes), failures / runs,
                    0.02 * mtti / 100, strikes.toString());
        }
    }

    @Test
    void theTimeSplitAccountsForEverySecond() {
        Machine machine = Machine.withSystemMtbf(512, 900, 0.7, Strikes.ANY_PROCESS);
        for (Strategy strategy : Strategy.values()) {
            TimelineSimulator simulator = new TimelineSimulator(Setup.of(strategy, machine, COSTS, 1), machine, 20_000);
            for (long seed = 0; seed < 50; seed++) {
                Timeline t = simulator.run(seed);
                assertEquals(t.makespanSeconds(), t.split().total(), 1e-6 * t.makespanSeconds(), strategy + " " + seed);
                assertTrue(t.finished());
                assertEquals(20_000, t.workDoneSeconds(), 1e-6);
            }
        }
    }

    @Test
    void withoutFailuresOnlyTheFailureFreeCostsRemain() {
        Machine machine = new Machine(1000, 1e18, 0.7, Strikes.ANY_PROCESS);
        double work = 10_000;
        Setup cr = Setup.of(Strategy.CHECKPOINT_RESTART, machine, COSTS, 1);
        TimelineSimulator simulator = new TimelineSimulator(cr, machine, work);
        Timeline t = simulator.run(3);
        double checkpoints = Math.ceil(work / cr.intervalSeconds()) - 1;
        assertEquals(work + checkpoints * 60, t.makespanSeconds(), 1e-6);
        Setup rep = Setup.of(Strategy.REPLICATION, machine, COSTS, 1);
        TimelineSimulator replicated = new TimelineSimulator(rep, machine, work);
        Timeline r = replicated.run(3);
        assertEquals(0.5 / 1.03, replicated.efficiency(r), 1e-12);
        assertEquals(work * 0.01, r.split().logTrim(), 1e-6);
        assertEquals(0, r.failures());
    }

    @Test
    void aJobThatCannotProgressStopsAtTheCap() {
        Machine machine = Machine.withSystemMtbf(1000, 10, 0.7, Strikes.ANY_PROCESS);
        Setup cr = Setup.of(Strategy.CHECKPOINT_RESTART, machine, COSTS, 1);   // C = 60 s, MTTI = 10 s
        Timeline t = new TimelineSimulator(cr, machine, 3600, 5).run(9);
        assertFalse(t.finished());
        assertTrue(t.makespanSeconds() >= 5 * 3600);
    }

    @Test
    void sameSeedSameRun() {
        Machine machine = Machine.withSystemMtbf(2048, 600, 0.7, Strikes.LIVE_PROCESSES);
        TimelineSimulator simulator = new TimelineSimulator(
                Setup.of(Strategy.REPLICATION_CHECKPOINT, machine, COSTS, 1), machine, 50_000);
        assertEquals(simulator.run(42), simulator.run(42));
    }
}

package org.fthp.model.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;
import org.fthp.model.strategy.Strategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The paper's §VII against the simulator: HPCG for 3 hours of work, Weibull
 * (shape 0.7) failures at a system MTBF of 16000 s at 1024 processes halving as
 * the processes double, checkpoint costs of Table I, dual redundancy with the
 * 1.3 % overhead of Fig. 13. The paper gives no restart cost; the tests run over
 * a range of them (restore as long as a checkpoint or twice that, relaunch 30 to
 * 300 s), and what they assert holds over the whole range.
 */
class PaperPointsTest {

    private static final double WORK = 3 * 3600;
    private static final double TABLE_ONE_SCALING = Math.log(215.0 / 46) / Math.log(8);
    private static final int RUNS = 400;

    /** System MTBF of the paper's runs: 2000 s at 8192 processes, doubling as processes halve. */
    private static Machine paperMachine(int processes) {
        return Machine.withSystemMtbf(processes, 2000.0 * 8192 / processes, 0.7, Strikes.ANY_PROCESS);
    }

    private static double median(Strategy strategy, Machine machine, Calibration costs) {
        TimelineSimulator simulator = new TimelineSimulator(Setup.of(strategy, machine, costs, 1), machine, WORK);
        return MonteCarlo.estimate(simulator, RUNS, 2026).efficiencyExpected();
    }

    /** Table I's rows: checkpoint/restart wins while failures are rare, and loses efficiency as they get frequent. */
    @ParameterizedTest(name = "{0} processes, C = {1} s, restore x{2}, relaunch {3} s")
    @CsvSource({
        "1024,  46, 1, 30", "2048,  65, 1, 30", "4096, 114, 1, 30",
        "1024,  46, 2, 300", "2048,  65, 2, 300", "4096, 114, 2, 300",
    })
    void checkpointingWinsWhileTheSystemMtbfIsAtLeast4000Seconds(int processes, double checkpoint, double restore,
                                                               double relaunch) {
        Calibration costs = new Calibration(processes, checkpoint, TABLE_ONE_SCALING, restore * checkpoint, relaunch,
                1, 0.013, 0);
        Machine machine = paperMachine(processes);
        double checkpointing = median(Strategy.CHECKPOINT_RESTART, machine, costs);
        double replication = median(Strategy.REPLICATION, machine, costs);
        assertTrue(checkpointing > replication + 0.05, checkpointing + " vs " + replication);
        // replication loses half its processes to redundancy and almost nothing else (Figs. 11, 12)
        assertEquals(0.5 / 1.013, replication, 0.01);
    }

    /**
     * Along the paper's series (system MTBF 16000·1024/P, checkpoint cost on the
     * line through Table I's 1024 and 8192 rows), replication overtakes
     * checkpointing at a system MTBF around 2000 s, between 1500 and 3000 s
     * whatever the restart costs, and the overtaking is clear on either side.
     */
    @ParameterizedTest(name = "restore x{0}, relaunch {1} s")
    @CsvSource({"1, 30", "1, 300", "2, 30", "2, 300"})
    void replicationOvertakesCheckpointingAroundASystemMtbfOf2000Seconds(double restore, double relaunch) {
        Calibration costs = new Calibration(1024, 46, TABLE_ONE_SCALING, restore * 46, relaunch, 1, 0.013, 0);
        double low = 1024;
        double high = 65536;
        for (int i = 0; i < 20; i++) {
            double middle = Math.sqrt(low * high);
            Machine machine = paperMachine(2 * (int) Math.round(middle / 2));
            if (median(Strategy.CHECKPOINT_RESTART, machine, costs) > median(Strategy.REPLICATION, machine, costs)) {
                low = middle;
            } else {
                high = middle;
            }
        }
        double crossoverMtbf = 2000.0 * 8192 / Math.sqrt(low * high);
        assertTrue(crossoverMtbf > 1500 && crossoverMtbf < 3000, "crossover at a system MTBF of " + crossoverMtbf);
        Machine rare = paperMachine(4096);
        Machine frequent = paperMachine(16384);
        assertTrue(median(Strategy.CHECKPOINT_RESTART, rare, costs) > 1.3 * median(Strategy.REPLICATION, rare, costs));
        assertTrue(median(Strategy.REPLICATION, frequent, costs) > 1.1 * median(Strategy.CHECKPOINT_RESTART, frequent, costs));
    }

    /** At 8192 processes and 2000 s, checkpoint writes, restores and rollback take a large part of the run (Fig. 12). */
    @Test
    void atTheLargestRunCheckpointingSpendsMoreThanAThirdOfItsTimeOnFaultTolerance() {
        Calibration costs = new Calibration(8192, 215, TABLE_ONE_SCALING, 215, 30, 1, 0.013, 0);
        Machine machine = paperMachine(8192);
        TimeSplit cr = MonteCarlo.estimate(new TimelineSimulator(
                Setup.of(Strategy.CHECKPOINT_RESTART, machine, costs, 1), machine, WORK), RUNS, 7).split().shares();
        TimeSplit rep = MonteCarlo.estimate(new TimelineSimulator(
                Setup.of(Strategy.REPLICATION, machine, costs, 1), machine, WORK), RUNS, 7).split().shares();
        assertTrue(cr.useful() < 0.66, "useful share " + cr.useful());
        assertTrue(cr.checkpoint() > 0.1 && cr.restart() > 0.05 && cr.rollback() > 0.05, cr.toString());
        assertTrue(cr.lostWork() > cr.repair(), "checkpointing's rollback is lost work: " + cr);
        // replication: no checkpoint, and a negligible rollback made of repairs only
        assertEquals(0, rep.checkpoint());
        assertTrue(rep.useful() > 0.99 && rep.rollback() < 0.01, rep.toString());
    }
}

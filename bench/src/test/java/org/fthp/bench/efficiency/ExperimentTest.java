package org.fthp.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import java.io.StringReader;
import java.io.IOException;
import org.fthp.model.calibration.Calibration;
import org.junit.jupiter.api.Test;

class ExperimentTest {

    private static RunRecord run(Mode mode, long seed, double wall, double flops, List<Double> costs, int restarts,
                                 double lost, double relaunch, int repairs, double repairMs) {
        boolean replicated = mode.replicated();
        return new RunRecord(mode, seed, replicated ? 2 : 4, replicated ? 2 : 0, 120, wall, 0, "HPCG", true, flops, "",
                restarts + repairs, restarts, costs, Double.NaN, lost, relaunch, repairs, repairMs, 0, 1);
    }

    private static Experiment experiment() {
        return new Experiment(List.of(
                run(Mode.BASELINE, 1, 40, 8e9, List.of(), 0, 0, 0, 0, 0),
                run(Mode.BASELINE, 2, 60, 8e9, List.of(), 0, 0, 0, 0, 0),
                run(Mode.BASELINE, 3, 50, 8e9, List.of(), 0, 0, 0, 0, 0),
                run(Mode.REPLICATED_FREE, 1, 55, 4e9, List.of(), 0, 0, 0, 0, 0),
                run(Mode.CHECKPOINT_RESTART, 1, 100, 8e9, List.of(0.2, 0.2, 0.4), 2, 6, 0.5, 0, 0),
                run(Mode.REPLICATION_CHECKPOINT, 1, 80, 4e9, List.of(0.1), 1, 3, 0.2, 2, 200)));
    }

    @Test
    void efficiencyIsWorkPerCoreSecondAgainstTheBaselineMedian() {
        Experiment e = experiment();
        assertEquals(50, e.medianWall(Mode.BASELINE));
        assertEquals(1.0, e.efficiency(e.runs(Mode.BASELINE).get(2)), 1e-12);
        assertEquals(0.5, e.efficiency(e.runs(Mode.CHECKPOINT_RESTART).get(0)), 1e-12, "same work, twice the time");
        assertEquals(0.5 * 50 / 55, e.efficiency(e.runs(Mode.REPLICATED_FREE).get(0)), 1e-12,
                "half the work (P/2 logical ranks) on the same cores");
        Stats s = e.efficiency(Mode.BASELINE);
        assertEquals(50.0 / 60, s.min(), 1e-12);
        assertEquals(50.0 / 40, s.max(), 1e-12);
    }

    @Test
    void anUnfinishedRunKeptNothing() {
        RunRecord r = run(Mode.REPLICATION, 1, 900, Double.NaN, List.of(), 9, 800, 2, 0, 0);
        RunRecord unfinished = new RunRecord(r.mode(), 1, 2, 2, 120, 900, 4, "HPCG", false, Double.NaN, "", 12, 9,
                List.of(), Double.NaN, 800, 2, 0, 0, 0, 1);
        List<RunRecord> runs = new java.util.ArrayList<>(List.of(
                run(Mode.BASELINE, 1, 50, 8e9, List.of(), 0, 0, 0, 0, 0), unfinished));
        Experiment e = new Experiment(runs);
        assertEquals(0, e.efficiency(unfinished));
        assertEquals(0, e.split(unfinished).useful());
    }

    private static RunRecord clover(Mode mode, long seed, double wall, String answer) {
        boolean replicated = mode.replicated();
        return new RunRecord(mode, seed, replicated ? 2 : 4, replicated ? 2 : 0, 120, wall, 0, "CloverLeaf", true,
                replicated ? 4e8 : 8e8, answer, 0, 0, List.of(), Double.NaN, 0, 0, 0, 0, 0, 1);
    }

    @Test
    void aRunWhoseAnswerDiffersFromItsLayoutsFailureFreeRunKeptNothing() {
        Experiment e = new Experiment(List.of(clover(Mode.BASELINE, 1, 50, "a4"), clover(Mode.REPLICATED_FREE, 1, 55, "b2"),
                clover(Mode.CHECKPOINT_RESTART, 1, 100, "a4"), clover(Mode.REPLICATION, 1, 70, "b2"),
                clover(Mode.REPLICATION, 2, 70, "a4")));
        assertEquals("CloverLeaf", e.app());
        assertEquals(0.5, e.efficiency(e.runs(Mode.CHECKPOINT_RESTART).get(0)), 1e-12);
        assertEquals(0.5 * 50 / 70, e.efficiency(e.runs(Mode.REPLICATION).get(0)), 1e-12,
                "the replicated layout's answer is the replicated failure-free run's");
        assertEquals(0, e.efficiency(e.runs(Mode.REPLICATION).get(1)), "another layout's answer is not this one's");
    }

    @Test
    void splitAddsUpToTheWallTimeWithTheRemainderAsRestart() {
        Experiment e = experiment();
        MeasuredSplit s = e.split(e.runs(Mode.CHECKPOINT_RESTART).get(0));
        assertEquals(50, s.useful(), 1e-12, "the failure-free run's time");
        assertEquals(0.8, s.checkpoint(), 1e-12);
        assertEquals(6.5, s.rollback(), 1e-12);
        assertEquals(100 - 50 - 0.8 - 6.5, s.restart(), 1e-12);
        assertEquals(100, s.total(), 1e-9);
        MeasuredSplit r = e.split(e.runs(Mode.REPLICATION_CHECKPOINT).get(0));
        assertEquals(55, r.useful(), 1e-12, "the replicated failure-free run's time");
        assertEquals(3 + 0.2 + 0.4, r.rollback(), 1e-12);
    }

    @Test
    void calibrationFromTheRunsLoadsAsTheModelReadsIt() throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(Calibrator.properties(experiment())));
        Calibration c = Calibration.of(p, "test");
        assertEquals(4, c.referenceRanks());
        assertEquals(0.2, c.checkpointSeconds(), 1e-12, "median commit at P ranks");
        assertEquals(1.0, c.checkpointScaling(), 1e-9, "0.2 s at 4 ranks, 0.1 s at 2");
        assertEquals(0.2, c.restoreSeconds(), 1e-12);
        assertEquals(0.2, c.repairSeconds(), 1e-12, "the median survivor repair");
        assertEquals(0.1, c.replicationOverhead(), 1e-9, "55 s replicated vs 50 s plain");
        // per restart: relaunch + remainder - restore, median of the checkpointing runs that restarted
        double cr = (0.5 + (100 - 50 - 0.8 - 6.5)) / 2 - 0.2;
        double rc = (0.2 + (80 - 55 - 0.1 - 3.6)) / 1 - 0.2;
        assertEquals((cr + rc) / 2, c.relaunchSeconds(), 1e-4);
    }

    @Test
    void noBaselineNoComparison() {
        assertThrows(IllegalArgumentException.class, () -> new Experiment(List.of(
                run(Mode.CHECKPOINT_RESTART, 1, 100, 8e9, List.of(0.2), 0, 0, 0, 0, 0))));
        assertTrue(Mode.ofDirectory("replication-checkpoint") == Mode.REPLICATION_CHECKPOINT);
    }
}

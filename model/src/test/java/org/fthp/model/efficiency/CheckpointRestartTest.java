package org.fthp.model.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.model.CheckpointInterval;
import org.junit.jupiter.api.Test;

class CheckpointRestartTest {

    @Test
    void youngsIntervalMinimisesTheFirstOrderWasteWithoutRestartCost() {
        double c = 60;
        double mtti = 36_000;
        double young = CheckpointInterval.young(c, mtti);
        double atYoung = CheckpointRestart.firstOrderWaste(young, c, 0, mtti);
        for (double factor : new double[] {0.5, 0.8, 1.25, 2}) {
            assertTrue(CheckpointRestart.firstOrderWaste(young * factor, c, 0, mtti) > atYoung, "factor " + factor);
        }
    }

    @Test
    void dalysIntervalIsCloseToTheExactOptimum() {
        double c = 215;
        double r = 245;
        double mtti = 2000;
        double work = 1e6;
        double best = Double.POSITIVE_INFINITY;
        double bestInterval = 0;
        for (double tau = 100; tau < 3000; tau += 1) {
            double makespan = CheckpointRestart.expectedMakespan(work, tau, c, r, mtti);
            if (makespan < best) {
                best = makespan;
                bestInterval = tau;
            }
        }
        double daly = CheckpointInterval.daly(c, mtti);
        assertEquals(bestInterval, daly, 0.1 * bestInterval);
        // and costs less than 1 % over the optimum
        assertTrue(CheckpointRestart.expectedMakespan(work, daly, c, r, mtti) < 1.01 * best);
    }

    @Test
    void firstOrderAndExactAgreeWhenFailuresAreRare() {
        double c = 10;
        double r = 20;
        double mtti = 1e6;
        double tau = CheckpointInterval.daly(c, mtti);
        double work = 1e7;
        double exactWaste = 1 - CheckpointRestart.efficiency(work, tau, c, r, mtti);
        double firstOrder = CheckpointRestart.firstOrderWaste(tau, c, r, mtti);
        assertEquals(exactWaste, firstOrder, 0.05 * exactWaste);
        // and part ways when the period is a good share of the MTTI: first order is pessimistic there
        double tight = 1 - CheckpointRestart.efficiency(1e6, 790, 215, 245, 2000);
        assertTrue(CheckpointRestart.firstOrderWaste(790, 215, 245, 2000) > tight + 0.03);
    }

    @Test
    void exactMakespanByHandForOneChunk() {
        // one chunk of 100 s of work (no checkpoint after the last chunk), R = 10 s, μ = 1000 s
        double expected = 1000 * Math.exp(0.01) * (Math.exp(0.1) - 1);
        assertEquals(expected, CheckpointRestart.expectedMakespan(100, 100, 5, 10, 1000), 1e-9);
        // two chunks: the first followed by its checkpoint
        double two = 1000 * Math.exp(0.01) * (Math.exp(0.105) - 1) + expected;
        assertEquals(two, CheckpointRestart.expectedMakespan(200, 100, 5, 10, 1000), 1e-9);
        // without checkpoints the whole work is one chunk
        assertEquals(1000 * Math.exp(0.01) * (Math.exp(0.2) - 1),
                CheckpointRestart.expectedMakespan(200, Double.POSITIVE_INFINITY, 0, 10, 1000), 1e-9);
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> CheckpointRestart.expectedMakespan(0, 10, 1, 1, 100));
        assertThrows(IllegalArgumentException.class, () -> CheckpointRestart.expectedMakespan(10, 0, 1, 1, 100));
        assertThrows(IllegalArgumentException.class, () -> CheckpointRestart.firstOrderWaste(10, -1, 1, 100));
        assertThrows(IllegalArgumentException.class, () -> CheckpointRestart.firstOrderWaste(10, 1, 1, 0));
    }
}

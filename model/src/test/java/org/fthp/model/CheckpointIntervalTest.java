package org.fthp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CheckpointIntervalTest {

    /**
     * The paper's Table I: μ is the system MTBF of the run, C the measured
     * checkpoint time, the interval √(2μC) truncated to the hundredth (rounding
     * would give 954.99 and 244.95 for the 4096-rank HPCG and PIC rows).
     */
    @ParameterizedTest(name = "{0} at {1} ranks: mu={2} C={3} -> {4}")
    @CsvSource({
        "HPCG,       1024, 16000,  46, 1213.26",
        "HPCG,       2048,  8000,  65, 1019.80",
        "HPCG,       4096,  4000, 114,  954.98",
        "HPCG,       8192,  2000, 215,  927.36",
        "CloverLeaf, 8192,   500,  42,  204.93",
        "PIC,        8192,   500,  60,  244.94",
    })
    void tableOneIsYoungsIntervalTruncatedToTheHundredth(String app, int ranks, double mu, double c, double listed) {
        double young = CheckpointInterval.young(c, mu);
        assertEquals(listed, Math.floor(young * 100) / 100, 1e-9, app + " at " + ranks);
        // and not Daly's, which is shorter by about C for these ratios
        assertTrue(Math.abs(CheckpointInterval.daly(c, mu) - listed) > 1, app);
    }

    @Test
    void dalyIsYoungMinusTheCheckpointPlusHigherOrderTerms() {
        double c = 215;
        double m = 2000;
        double r = c / (2 * m);
        double expected = Math.sqrt(2 * c * m) * (1 + Math.sqrt(r) / 3 + r / 9) - c;
        assertEquals(expected, CheckpointInterval.daly(c, m), 1e-9);
        assertEquals(789.57, CheckpointInterval.daly(c, m), 0.005);   // 927.36 · 1.08325 − 215
        // for a cheap checkpoint Daly tends to Young minus the checkpoint
        double young = CheckpointInterval.young(1, 1e6);
        assertEquals(young - 1, CheckpointInterval.daly(1, 1e6), young * 1e-3);
    }

    @Test
    void dalyIsTheMttiOnceTheCheckpointCostsTwoMttis() {
        assertEquals(100, CheckpointInterval.daly(200, 100), 0);
        assertEquals(100, CheckpointInterval.daly(5000, 100), 0);
        // just below the bound the estimate is still in use, and close to the MTTI
        double below = CheckpointInterval.daly(199.99, 100);
        assertTrue(below > 0 && Math.abs(below - 100) < 20, "got " + below);
    }

    @Test
    void refusesNonPositiveOrNonFiniteInputs() {
        assertThrows(IllegalArgumentException.class, () -> CheckpointInterval.young(0, 100));
        assertThrows(IllegalArgumentException.class, () -> CheckpointInterval.young(10, -1));
        assertThrows(IllegalArgumentException.class, () -> CheckpointInterval.daly(Double.NaN, 100));
        assertThrows(IllegalArgumentException.class, () -> CheckpointInterval.daly(10, Double.POSITIVE_INFINITY));
    }
}

package org.fthp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RestoredReplicationTest {

    @Test
    void aPairSurvivesUnlessBothCopiesFail() {
        RestoredReplication model = new RestoredReplication(0, 1, 1e-3, 0, 2e-3);
        for (double t : new double[] {0, 10, 500, 4000}) {
            double dead = -Math.expm1(-1e-3 * t);
            assertEquals(1 - dead * dead, model.survival(t), 1e-12);
        }
        // with detected corruptions: both alive decays at 2(λ+σ), and a lone copy is never checked
        RestoredReplication checked = new RestoredReplication(0, 1, 1e-3, 5e-4, 2e-3);
        assertEquals(Math.exp(-3e-3 * 100), checked.bothAlive(100), 1e-15);
        assertTrue(checked.survival(100) < model.survival(100));
    }

    /** SC'19's order: with restoration the interval grows as μ^(2/3), not as Young's μ^(1/2). */
    @Test
    void theOptimalIntervalApproachesTheFirstOrderOneAndGrowsAsMtbfToTheTwoThirds() {
        double c = 60;
        int pairs = 1000;
        for (double mtbf : new double[] {1e7, 8e7}) {
            double lambda = 1 / mtbf;
            RestoredReplication model = new RestoredReplication(0, pairs, lambda, 0, 2 * pairs * lambda);
            double first = RestoredReplication.firstOrderInterval(c, pairs, lambda);
            assertEquals(first, model.optimalInterval(c, 0), 0.03 * first, "MTBF " + mtbf);
        }
        double ratio = RestoredReplication.firstOrderInterval(c, pairs, 1 / 8e7)
                / RestoredReplication.firstOrderInterval(c, pairs, 1 / 1e7);
        assertEquals(4, ratio, 1e-9);   // 8^(2/3); Young's would give √8
        // longer than Young's interval from the MTTI of the job that is never restored, and more so as μ grows
        double shortMtbf = RestoredReplication.firstOrderInterval(c, pairs, 1e-7)
                / CheckpointInterval.young(c, JobMtti.exponential(pairs, pairs, 1e7));
        double longMtbf = RestoredReplication.firstOrderInterval(c, pairs, 1 / 8e7)
                / CheckpointInterval.young(c, JobMtti.exponential(pairs, pairs, 8e7));
        assertTrue(shortMtbf > 2 && longMtbf > 1.3 * shortMtbf, shortMtbf + ", " + longMtbf);
    }

    @Test
    void singlesAndRestorationCostsShortenTheInterval() {
        RestoredReplication pairsOnly = new RestoredReplication(0, 100, 1e-6, 0, 2e-4);
        RestoredReplication withSingles = new RestoredReplication(50, 100, 1e-6, 0, 2.5e-4);
        assertTrue(withSingles.optimalInterval(60, 0) < pairsOnly.optimalInterval(60, 0));
        assertTrue(pairsOnly.optimalInterval(60, 30) > pairsOnly.optimalInterval(60, 0),
                "a costlier restoration makes it pay to restore less often");
    }

    @Test
    void expectedMakespanWithoutFailuresIsTheWorkAndTheCheckpoints() {
        RestoredReplication model = new RestoredReplication(0, 4, 1e-15, 0, 1e-14);
        assertEquals(1000 + 9 * 10, model.expectedMakespan(1000, 100, 10, 30, 5), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> new RestoredReplication(0, 0, 1e-3, 0, 1e-3));
    }
}

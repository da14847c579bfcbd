package org.fthp.model.failure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.model.JobMtti;
import org.fthp.model.Strikes;
import org.junit.jupiter.api.Test;

class InterruptionSimulatorTest {

    private static void within(double exact, double mean, double standardError, String what) {
        assertTrue(Math.abs(mean - exact) < 4 * standardError, what + ": exact " + exact + ", simulated " + mean
                + " ± " + standardError);
    }

    @Test
    void exponentialClocksGiveTheClosedFormsUnderBothConventions() {
        Weibull exponential = new Weibull(1000, 1);
        for (Strikes strikes : Strikes.values()) {
            InterruptionSimulator.Estimate e = InterruptionSimulator.perProcessClocks(60, 40, exponential, strikes,
                    40_000, 3);
            within(JobMtti.exponential(60, 40, 1000), e.mtti(), e.mttiStandardError(), strikes + " MTTI");
            within(JobMtti.meanFailuresToInterruption(60, 40, strikes), e.failures(), e.failuresStandardError(),
                    strikes + " MNFTI");
        }
    }

    @Test
    void weibullClocksGiveTheQuadratureMtti() {
        InterruptionSimulator.Estimate e = InterruptionSimulator.perProcessClocks(100, 100, new Weibull(5000, 0.7),
                Strikes.ANY_PROCESS, 40_000, 4);
        within(JobMtti.weibull(100, 100, 5000, 0.7), e.mtti(), e.mttiStandardError(), "MTTI");
        // young processes fail more often with shape < 1: dead slots are struck again sooner than
        // with exponential clocks, so more failures pile up than the birthday count for the same pairs
        double exponentialCount = JobMtti.meanFailuresToInterruption(100, 100, Strikes.ANY_PROCESS);
        assertTrue(e.failures() > exponentialCount, e.failures() + " vs " + exponentialCount);
    }
}

package org.fthp.model.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Many seeded runs of one simulator and what they say together: the expected
 * efficiency (mean kept work over mean wall time: what a user gets over many
 * jobs, rare restarts from scratch included), the median and spread of single
 * runs (10th and 90th percentiles, to set beside measured runs), the mean
 * makespan with its standard error, and the mean time split.
 */
public final class MonteCarlo {

    /**
     * @param efficiencyExpected working share × mean kept work / mean makespan
     * @param efficiencyMedian median over the runs of the paper's efficiency
     * @param efficiencyLow    10th percentile
     * @param efficiencyHigh   90th percentile
     * @param makespanMean     mean wall time, seconds
     * @param makespanStandardError its standard error
     * @param split            mean time split, seconds
     * @param failuresMean     mean failures per run
     * @param interruptionsMean mean interruptions per run
     * @param unfinished       runs stopped by the time cap
     * @param runs             number of runs
     * @param rollbacksMean    mean in-place rollbacks per run
     * @param restorationsMean mean restorations of replicas from spares per run
     * @param silentlyWrongShare expected share of runs that end with an undetected corruption:
     *                         the mean over the finished runs of 1 − exp(−σ · unprotected process-seconds);
     *                         NaN when no run finished (no result, right or wrong)
     */
    public record Estimate(double efficiencyExpected, double efficiencyMedian, double efficiencyLow, double efficiencyHigh, double makespanMean,
                           double makespanStandardError, TimeSplit split, double failuresMean,
                           double interruptionsMean, int unfinished, int runs, double rollbacksMean,
                           double restorationsMean, double silentlyWrongShare) {

        /** Expected efficiency counting only runs whose result is right: a silently wrong result is worth nothing. */
        public double correctEfficiency() {
            return Double.isNaN(silentlyWrongShare) ? efficiencyExpected : efficiencyExpected * (1 - silentlyWrongShare);
        }
    }

    private MonteCarlo() {}

    /** {@code runs} runs whose seeds are drawn from {@code seed}: the same seed, the same estimate. */
    public static Estimate estimate(TimelineSimulator simulator, int runs, long seed) {
        if (runs < 2) {
            throw new IllegalArgumentException("need at least 2 runs, not " + runs);
        }
        SplittableRandom seeds = new SplittableRandom(seed);
        double[] efficiency = new double[runs];
        double sum = 0;
        double sumSquares = 0;
        TimeSplit split = TimeSplit.ZERO;
        double failures = 0;
        double work = 0;
        double interruptions = 0;
        int unfinished = 0;
        double rollbacks = 0;
        double restorations = 0;
        double wrong = 0;
        double sdcRate = simulator.setup().silentErrors().ratePerProcessSecond();
        for (int i = 0; i < runs; i++) {
            Timeline t = simulator.run(seeds.nextLong());
            efficiency[i] = simulator.efficiency(t);
            sum += t.makespanSeconds();
            work += t.workDoneSeconds();
            sumSquares += t.makespanSeconds() * t.makespanSeconds();
            split = split.plus(t.split());
            failures += t.failures();
            interruptions += t.interruptions();
            unfinished += t.finished() ? 0 : 1;
            rollbacks += t.rollbacks();
            restorations += t.restorations();
            wrong += t.finished() ? -Math.expm1(-sdcRate * t.unprotectedProcessSeconds()) : 0;
        }
        Arrays.sort(efficiency);
        double mean = sum / runs;
        double variance = Math.max(0, (sumSquares - runs * mean * mean) / (runs - 1));
        double expected = simulator.setup().workingShare() * work / sum;
        return new Estimate(expected, quantile(efficiency, 0.5), quantile(efficiency, 0.1), quantile(efficiency, 0.9), mean,
                Math.sqrt(variance / runs), split.times(1.0 / runs), failures / runs, interruptions / runs,
                unfinished, runs, rollbacks / runs, restorations / runs,
                unfinished == runs ? Double.NaN : wrong / (runs - unfinished));
    }

    /** Linear interpolation between order statistics of sorted values. */
    static double quantile(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
    }
}

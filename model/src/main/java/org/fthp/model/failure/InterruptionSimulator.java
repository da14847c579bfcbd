package org.fthp.model.failure;

import java.util.SplittableRandom;
import org.fthp.model.Strikes;

/**
 * Monte-Carlo MTTI and failure count of a job of N ranks, M of them replicated,
 * whose processes fail on their own clocks (renewal processes, all fresh at 0):
 * where there is no closed form, the count of failures that strike dead
 * processes under Weibull clocks ({@link Strikes#ANY_PROCESS}) and the count of
 * failures to interruption of live processes with per-process clocks.
 */
public final class InterruptionSimulator {

    /** Means over the trials and their standard errors. */
    public record Estimate(double mtti, double mttiStandardError, double failures, double failuresStandardError) {}

    private InterruptionSimulator() {}

    public static Estimate perProcessClocks(int ranks, int replicatedRanks, Weibull perProcess, Strikes strikes,
                                            int trials, long seed) {
        if (ranks < 1 || replicatedRanks < 0 || replicatedRanks > ranks) {
            throw new IllegalArgumentException("need ranks >= 1 and 0 <= replicated <= ranks, not " + ranks + ", "
                    + replicatedRanks);
        }
        if (trials < 2) {
            throw new IllegalArgumentException("need at least 2 trials, not " + trials);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int slots = ranks + replicatedRanks;
        double[] firstFailure = new double[slots];   // slot r < ranks: rank r's first copy; ranks + r: r's replica
        Moments time = new Moments();
        Moments count = new Moments();
        for (int t = 0; t < trials; t++) {
            double interruption = Double.POSITIVE_INFINITY;
            for (int s = 0; s < slots; s++) {
                firstFailure[s] = perProcess.sample(random);
            }
            for (int r = 0; r < ranks; r++) {
                double rankDies = r < replicatedRanks ? Math.max(firstFailure[r], firstFailure[ranks + r]) : firstFailure[r];
                interruption = Math.min(interruption, rankDies);
            }
            long failures = 0;
            for (int s = 0; s < slots; s++) {
                double at = firstFailure[s];
                while (at <= interruption) {
                    failures++;
                    if (strikes == Strikes.LIVE_PROCESSES) {
                        break;   // a dead process is struck no more
                    }
                    at += perProcess.sample(random);
                }
            }
            time.add(interruption);
            count.add(failures);
        }
        return new Estimate(time.mean(), time.standardError(), count.mean(), count.standardError());
    }

    /** Running mean and variance (Welford). */
    private static final class Moments {
        private long n;
        private double mean;
        private double squares;

        void add(double x) {
            n++;
            double delta = x - mean;
            mean += delta / n;
            squares += delta * (x - mean);
        }

        double mean() {
            return mean;
        }

        double standardError() {
            return Math.sqrt(squares / (n - 1) / n);
        }
    }
}

package org.fthp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.fthp.model.math.Gamma;
import org.junit.jupiter.api.Test;

class JobMttiTest {

    @Test
    void twoReplicatedProcessesTakeThreeFailuresIfDeadOnesMayBeStruck() {
        assertEquals(3.0, JobMtti.meanFailuresToInterruption(1, 1, Strikes.ANY_PROCESS), 1e-12);
        assertEquals(2.0, JobMtti.meanFailuresToInterruption(1, 1, Strikes.LIVE_PROCESSES), 1e-12);
        // the same by drawing victims among the two slots until both were struck
        SplittableRandom random = new SplittableRandom(20);
        long failures = 0;
        int trials = 200_000;
        for (int t = 0; t < trials; t++) {
            boolean[] struck = new boolean[2];
            int count = 0;
            while (!(struck[0] && struck[1])) {
                struck[random.nextInt(2)] = true;
                count++;
            }
            failures += count;
        }
        assertEquals(3.0, (double) failures / trials, 0.01);
    }

    @Test
    void exactFailureCountsOfSmallJobs() {
        // two pairs, any slot: 4 · ∫ u (2 − u)² du = 4 · 11/12
        assertEquals(11.0 / 3, JobMtti.meanFailuresToInterruption(2, 2, Strikes.ANY_PROCESS), 1e-12);
        // two pairs, live only: 1 + 1 + (4/4)(2/3) = 8/3
        assertEquals(8.0 / 3, JobMtti.meanFailuresToInterruption(2, 2, Strikes.LIVE_PROCESSES), 1e-12);
        // no replica: the first failure interrupts, whatever the convention
        assertEquals(1.0, JobMtti.meanFailuresToInterruption(64, 0, Strikes.ANY_PROCESS), 1e-12);
        assertEquals(1.0, JobMtti.meanFailuresToInterruption(64, 0, Strikes.LIVE_PROCESSES), 1e-12);
    }

    @Test
    void failureCountsMatchDrawnVictims() {
        int ranks = 40;
        int replicated = 25;
        for (Strikes strikes : Strikes.values()) {
            double simulated = simulatedFailures(ranks, replicated, strikes, new SplittableRandom(7), 100_000);
            double exact = JobMtti.meanFailuresToInterruption(ranks, replicated, strikes);
            assertEquals(exact, simulated, 0.02 * exact, strikes.toString());
        }
    }

    @Test
    void exponentialMttiClosedForms() {
        double mtbf = 1e6;
        assertEquals(mtbf / 1000, JobMtti.exponential(1000, 0, mtbf), 1e-9 * mtbf);
        assertEquals(1.5 * mtbf, JobMtti.exponential(1, 1, mtbf), 1e-9 * mtbf);     // max of two exponentials
        assertEquals(11.0 / 12 * mtbf, JobMtti.exponential(2, 2, mtbf), 1e-9 * mtbf);
        // MTTI = MNFTI × system MTBF when dead processes may be struck (constant system rate)
        int n = 5000;
        int m = 3000;
        assertEquals(JobMtti.meanFailuresToInterruption(n, m, Strikes.ANY_PROCESS) * mtbf / (n + m),
                JobMtti.exponential(n, m, mtbf), 1e-9 * mtbf);
    }

    @Test
    void weibullWithoutReplicasIsTheMinimumOfNWeibulls() {
        double mtbf = 125 * 365.25 * 86400;
        for (int n : new int[] {1, 1000, 1_000_000}) {
            assertEquals(mtbf / Math.pow(n, 1 / 0.7), JobMtti.weibull(n, 0, mtbf, 0.7), 1e-9 * mtbf / Math.pow(n, 1 / 0.7));
        }
        assertEquals(JobMtti.exponential(300, 120, 1e5), JobMtti.weibull(300, 120, 1e5, 1.0), 0);
    }

    @Test
    void weibullMttiMatchesSimulatedLifetimes() {
        int ranks = 30;
        int replicated = 12;
        double mtbf = 1000;
        double shape = 0.7;
        double scale = mtbf / Gamma.of(1 + 1 / shape);
        SplittableRandom random = new SplittableRandom(11);
        int trials = 200_000;
        double sum = 0;
        double sumSquares = 0;
        for (int t = 0; t < trials; t++) {
            double interruption = Double.POSITIVE_INFINITY;
            for (int r = 0; r < ranks; r++) {
                double life = weibull(random, scale, shape);
                if (r < replicated) {
                    life = Math.max(life, weibull(random, scale, shape));
                }
                interruption = Math.min(interruption, life);
            }
            sum += interruption;
            sumSquares += interruption * interruption;
        }
        double mean = sum / trials;
        double standardError = Math.sqrt((sumSquares / trials - mean * mean) / trials);
        double exact = JobMtti.weibull(ranks, replicated, mtbf, shape);
        assertTrue(Math.abs(mean - exact) < 4 * standardError, "exact " + exact + " simulated " + mean + " ± " + standardError);
    }

    @Test
    void fullReplicationOfAMillionProcessesOutlivesNoReplication() {
        double mtbf = 125 * 365.25 * 86400;
        double plain = JobMtti.exponential(1_000_000, 0, mtbf);
        double replicated = JobMtti.exponential(500_000, 500_000, mtbf);
        // a replicated job dies on the order of √N failures in, not the first one
        assertTrue(replicated > 300 * plain, plain + " vs " + replicated);
        assertTrue(Double.isFinite(replicated));
    }

    @Test
    void refusesImpossibleJobs() {
        assertThrows(IllegalArgumentException.class, () -> JobMtti.exponential(0, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> JobMtti.exponential(4, 5, 10));
        assertThrows(IllegalArgumentException.class, () -> JobMtti.exponential(4, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> JobMtti.exponential(4, 2, 0));
        assertThrows(IllegalArgumentException.class, () -> JobMtti.weibull(4, 2, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> JobMtti.systemStream(4, 2, Double.NaN, Strikes.ANY_PROCESS));
    }

    private static double weibull(SplittableRandom random, double scale, double shape) {
        return scale * Math.pow(-Math.log(1 - random.nextDouble()), 1 / shape);
    }

    /** Victims drawn uniformly from the targets until a rank has lost every copy. */
    private static double simulatedFailures(int ranks, int replicated, Strikes strikes, SplittableRandom random, int trials) {
        int processes = ranks + replicated;   // slot p < ranks: copy 0 of rank p; slot ranks + r: replica of rank r
        long total = 0;
        for (int t = 0; t < trials; t++) {
            boolean[] dead = new boolean[processes];
            int[] live = new int[processes];
            for (int p = 0; p < processes; p++) {
                live[p] = p;
            }
            int liveCount = processes;
            int count = 0;
            while (true) {
                count++;
                int victim;
                if (strikes == Strikes.ANY_PROCESS) {
                    victim = random.nextInt(processes);
                } else {
                    int i = random.nextInt(liveCount);
                    victim = live[i];
                    live[i] = live[--liveCount];
                }
                dead[victim] = true;
                int rank = victim < ranks ? victim : victim - ranks;
                boolean hasReplica = rank < replicated;
                if (!hasReplica || (dead[rank] && dead[ranks + rank])) {
                    break;
                }
            }
            total += count;
        }
        return (double) total / trials;
    }
}

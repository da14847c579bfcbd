package org.fthp.model;

import org.fthp.model.math.Gamma;
import org.fthp.model.math.Quadrature;

/**
 * Mean time to interruption (MTTI) and mean number of failures to interruption
 * (MNFTI) of a job of N logical ranks of which M have one replica: 2M + (N − M)
 * processes. The job is interrupted when a rank without a replica loses its
 * process, or a replicated rank loses both copies; no process is replaced before
 * the interruption (the job restarts from a checkpoint, or ends, then).
 *
 * <p><b>Per-process clocks</b> ({@link #exponential}, {@link #weibull}): every
 * process fails on its own clock, independently, all starting fresh. Whether a
 * failure may also strike a dead process does not matter for the time: what
 * interrupts the job is the first failure of each process slot, the same in
 * both conventions. With S(t) the survival of one process,
 * P(job alive at t) = S^(N−M) · (1 − (1 − S)²)^M = S^N · (2 − S)^M, and the MTTI
 * is its integral over [0, ∞).
 *
 * <p><b>A system failure stream</b> ({@link #systemStream}, the model of
 * fthp-run's Weibull injector): failures arrive at the system with mean
 * inter-arrival time = the system MTBF, of any distribution, and each strikes a
 * process drawn uniformly from its targets. Which process is struck does not
 * depend on when, so by Wald's identity MTTI = MNFTI × system MTBF. Here the
 * convention matters: see {@link Strikes}.
 */
public final class JobMtti {

    private JobMtti() {}

    /**
     * MTTI with independent exponential failures of mean {@code mtbfPerProcessSeconds}
     * per process: MTBF · ∫₀¹ u^(N−1) (2 − u)^M du. Identical whether failures may
     * strike dead processes or not (see the class comment); the failure count
     * differs, see {@link #meanFailuresToInterruption}.
     */
    public static double exponential(int ranks, int replicatedRanks, double mtbfPerProcessSeconds) {
        return weibull(ranks, replicatedRanks, mtbfPerProcessSeconds, 1.0);
    }

    /**
     * MTTI with independent Weibull failures per process of the given mean and
     * shape, every process fresh at the start (with shape &lt; 1 a fresh process
     * fails early more often, so this is the MTTI of a job that has just started
     * or restarted on fresh processes). With x = (t/η)^k:
     * ∫₀^∞ exp(−N·x) · (2 − e^(−x))^M dt, η = MTBF / Γ(1 + 1/k), by quadrature.
     * Without replicas it is exactly MTBF / N^(1/k).
     */
    public static double weibull(int ranks, int replicatedRanks, double mtbfPerProcessSeconds, double shape) {
        checkRanks(ranks, replicatedRanks);
        checkPositive("per-process MTBF", mtbfPerProcessSeconds);
        checkPositive("Weibull shape", shape);
        double scale = mtbfPerProcessSeconds / Gamma.of(1 + 1 / shape);
        int n = ranks;
        int m = replicatedRanks;
        // in units of the scale; ln(2 − e^(−x)) = log1p(−expm1(−x)) keeps digits when x is tiny
        double integral = Quadrature.overHalfLine(t -> {
            double x = Math.pow(t, shape);
            return Math.exp(-n * x + m * Math.log1p(-Math.expm1(-x)));
        }, 1.0);
        return scale * integral;
    }

    /**
     * MTTI under a failure stream at the system level of mean inter-arrival time
     * {@code systemMtbfSeconds} (any distribution: Weibull in fthp-run), each
     * failure striking a uniformly drawn target: MNFTI × system MTBF. This is the
     * model of fthp-run's injector with {@link Strikes#LIVE_PROCESSES}.
     */
    public static double systemStream(int ranks, int replicatedRanks, double systemMtbfSeconds, Strikes strikes) {
        checkPositive("system MTBF", systemMtbfSeconds);
        return meanFailuresToInterruption(ranks, replicatedRanks, strikes) * systemMtbfSeconds;
    }

    /**
     * Mean number of failures until the job is interrupted, failures striking
     * uniformly drawn targets one after another (the order of victims; it does
     * not depend on the time between failures, so it holds for exponential and
     * Weibull streams alike).
     *
     * <ul>
     * <li>{@link Strikes#LIVE_PROCESSES}: after j failures that each took one
     * copy of a different intact pair, the next one is harmless with probability
     * 2(M − j) / (N + M − j); MNFTI = Σ_j Π_{i&lt;j} 2(M − i)/(N + M − i).
     * <li>{@link Strikes#ANY_PROCESS}: failures strike any of the N + M slots at
     * a constant rate, so MNFTI = (N + M) × ∫₀¹ u^(N−1)(2 − u)^M du (the
     * exponential MTTI in units of the system MTBF). One replicated rank alone: 3.
     * </ul>
     */
    public static double meanFailuresToInterruption(int ranks, int replicatedRanks, Strikes strikes) {
        checkRanks(ranks, replicatedRanks);
        int n = ranks;
        int m = replicatedRanks;
        return switch (strikes) {
            case LIVE_PROCESSES -> {
                double sum = 0;
                double survivedSoFar = 1;   // P(the first j failures each hit an intact pair)
                for (int j = 0; j <= m && survivedSoFar > 0; j++) {
                    sum += survivedSoFar;
                    survivedSoFar *= 2.0 * (m - j) / (n + m - j);
                }
                yield sum;
            }
            case ANY_PROCESS -> (double) (n + m) * exponential(n, m, 1.0);
        };
    }

    static void checkRanks(int ranks, int replicatedRanks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("a job has at least 1 rank, not " + ranks);
        }
        if (replicatedRanks < 0 || replicatedRanks > ranks) {
            throw new IllegalArgumentException("replicated ranks must be in 0.." + ranks + ", not " + replicatedRanks);
        }
    }

    static void checkPositive(String what, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be a finite number > 0, not " + value);
        }
    }
}

package org.fthp.model;

import org.fthp.model.math.Quadrature;

/**
 * Replication with checkpoints where dead replicas come back from spares at
 * every commit (the restart strategy of Benoit, Hérault, Le Fèvre and Robert,
 * "Replication is more efficient than you think", SC'19): every checkpoint
 * period starts with every replicated rank at two copies, so the job is lost in
 * a period only if some rank loses both copies within that period, not within
 * the whole run. The periods are then independent, and a period's expected
 * time has a closed form from the job's survival over one period.
 *
 * <p>Failures are exponential: each process slot fails at rate λ (its MTBF's
 * inverse) and a failure during a restart or a restoration starts it over (the
 * machine's failures go on, at the system rate Λ over every slot, spares
 * included). A pair's copies each fail at λ; while both live, each also takes
 * detected silent corruptions at σ (twin comparison), which interrupt the job
 * like the loss of the pair. With P₂ the probability both copies live and P₁
 * that exactly one does, undetected:
 * <pre>
 *   P₂(t) = e^(−2(λ+σ)t)
 *   P₁(t) = 2λ e^(−λt) (1 − e^(−(λ+2σ)t)) / (λ + 2σ)
 *   S(t)  = e^(−s·λt) · (P₂(t) + P₁(t))^b          s singles, b pairs
 * </pre>
 * A chunk of length L (work + checkpoint), restarted at cost R after each
 * interruption, takes on average (∫₀^L S + (1 − S(L))·R̄) / S(L), with
 * R̄ = (e^(ΛR) − 1)/Λ the restart under failures; after a commit, if some
 * replica died in the chunk (probability 1 − (P₂/(P₂+P₁))^b given the chunk got
 * through), a restoration costs a rollback R_b more.
 *
 * <p>To first order (λT ≪ 1, no singles, no restart cost) a pair is lost in a
 * period with probability (λT)², at 2T/3 on average (the later of two uniform
 * failures), so the waste is C/T + (2/3)·b·λ²·T², minimal at
 * T = (3C / (4bλ²))^(1/3): the interval grows as μ^(2/3) instead of Young's
 * √(2μC) ∝ μ^(1/2) ({@link #firstOrderInterval}). {@link #optimalInterval}
 * minimises the exact per-chunk time instead, with singles, restarts,
 * restorations and corruptions.
 *
 * @param singles         ranks without a replica
 * @param pairs           replicated ranks (two copies each)
 * @param failureRate     λ, failures per process per second
 * @param detectedRate    σ, corruptions per copy per second that twin comparison detects (0: none or off)
 * @param systemRate      Λ, failures per second anywhere on the machine (they strike restarts)
 */
public record RestoredReplication(int singles, int pairs, double failureRate, double detectedRate,
                                  double systemRate) {

    private static final int PIECES = 16;

    public RestoredReplication {
        if (singles < 0 || pairs < 1) {
            throw new IllegalArgumentException("need >= 0 singles and >= 1 pair, not " + singles + ", " + pairs);
        }
        if (!(failureRate > 0) || !(detectedRate >= 0) || !(systemRate >= failureRate)
                || Double.isInfinite(failureRate + detectedRate + systemRate)) {
            throw new IllegalArgumentException("rates must be finite, failure > 0, corruption >= 0, system >= failure; not "
                    + failureRate + ", " + detectedRate + ", " + systemRate);
        }
    }

    /** The first-order optimum (3C / (4bλ²))^(1/3): SC'19's order, μ^(2/3). */
    public static double firstOrderInterval(double checkpointSeconds, int pairs, double failureRate) {
        return Math.cbrt(3 * checkpointSeconds / (4 * pairs * failureRate * failureRate));
    }

    /** Both copies of one pair alive at t, no detected corruption. */
    double bothAlive(double t) {
        return Math.exp(-2 * (failureRate + detectedRate) * t);
    }

    /** Exactly one copy alive at t, the pair never lost, no detected corruption while both lived. */
    double oneAlive(double t) {
        double l = failureRate;
        double s = detectedRate;
        return 2 * l * Math.exp(-l * t) * -Math.expm1(-(l + 2 * s) * t) / (l + 2 * s);
    }

    /** Expected seconds, summed over the pairs, that pairs spend with one copy in a period of work T. */
    public double oneCopySeconds(double periodSeconds) {
        double sum = 0;
        double step = periodSeconds / PIECES;
        for (int i = 0; i < PIECES; i++) {
            sum += Quadrature.over(this::oneAlive, i * step, (i + 1) * step);
        }
        return pairs * sum;
    }

    /** The job not interrupted by t, every replica there at 0. */
    public double survival(double t) {
        return Math.exp(-singles * failureRate * t + pairs * Math.log(bothAlive(t) + oneAlive(t)));
    }

    /** Expected restart time when failures strike it and start it over: (e^(ΛR) − 1)/Λ. */
    public double restartUnderFailures(double restartSeconds) {
        return Math.expm1(systemRate * restartSeconds) / systemRate;
    }

    /** Some replica died in a chunk of length L that got through (a restoration is due at its commit). */
    public double restorationDue(double length) {
        double p2 = bothAlive(length);
        return -Math.expm1(pairs * Math.log(p2 / (p2 + oneAlive(length))));
    }

    /**
     * Expected time to get a chunk of {@code length} through, each interruption
     * costing {@code restartSeconds}, and then, when {@code restore}, a
     * restoration of {@code rollbackSeconds} if some replica died.
     */
    public double chunkSeconds(double length, double restartSeconds, boolean restore, double rollbackSeconds) {
        double got = survival(length);
        double attempt = 0;
        double step = length / PIECES;
        for (int i = 0; i < PIECES; i++) {
            attempt += Quadrature.over(this::survival, i * step, (i + 1) * step);
        }
        double time = (attempt + (1 - got) * restartUnderFailures(restartSeconds)) / got;
        return restore ? time + restorationDue(length) * restartUnderFailures(rollbackSeconds) : time;
    }

    /**
     * Expected makespan of {@code work} seconds of forward time in chunks of
     * {@code interval}, a checkpoint after each but the last, and a restoration
     * at each commit. Until the first commit an interruption costs
     * {@code firstRestartSeconds} (a relaunch: no checkpoint to roll back to),
     * afterwards {@code rollbackSeconds}.
     */
    public double expectedMakespan(double work, double interval, double checkpointSeconds,
                                   double firstRestartSeconds, double rollbackSeconds) {
        if (!(work > 0) || !(interval > 0) || Double.isInfinite(work)) {
            throw new IllegalArgumentException("work and interval must be > 0, not " + work + ", " + interval);
        }
        long chunks = (long) Math.ceil(work / interval - 1e-9);
        double last = work - (chunks - 1) * interval;
        if (chunks == 1) {
            return chunkSeconds(last, firstRestartSeconds, false, 0);
        }
        double first = chunkSeconds(interval + checkpointSeconds, firstRestartSeconds, true, rollbackSeconds);
        double middle = chunkSeconds(interval + checkpointSeconds, rollbackSeconds, true, rollbackSeconds);
        return first + (chunks - 2) * middle + chunkSeconds(last, rollbackSeconds, false, 0);
    }

    /**
     * The work between checkpoints that minimises the steady state's time per
     * second of work, chunk(T + C) / T, by golden-section search on log T
     * between C/100 and 10⁴ times the first-order optimum.
     */
    public double optimalInterval(double checkpointSeconds, double rollbackSeconds) {
        if (!(checkpointSeconds > 0) || Double.isInfinite(checkpointSeconds)) {
            throw new IllegalArgumentException("checkpoint must be a finite number of seconds > 0, not "
                    + checkpointSeconds);
        }
        java.util.function.DoubleUnaryOperator cost = logT -> {
            double t = Math.exp(logT);
            double c = chunkSeconds(t + checkpointSeconds, rollbackSeconds, true, rollbackSeconds) / t;
            return Double.isFinite(c) ? c : Double.MAX_VALUE;
        };
        double lo = Math.log(checkpointSeconds / 100);
        double hi = Math.log(Math.max(1e4 * firstOrderInterval(checkpointSeconds, pairs, failureRate),
                checkpointSeconds));
        double ratio = (Math.sqrt(5) - 1) / 2;
        double a = hi - ratio * (hi - lo);
        double b = lo + ratio * (hi - lo);
        double fa = cost.applyAsDouble(a);
        double fb = cost.applyAsDouble(b);
        while (hi - lo > 1e-6) {
            if (fa < fb) {
                hi = b;
                b = a;
                fb = fa;
                a = hi - ratio * (hi - lo);
                fa = cost.applyAsDouble(a);
            } else {
                lo = a;
                a = b;
                fa = fb;
                b = lo + ratio * (hi - lo);
                fb = cost.applyAsDouble(b);
            }
        }
        return Math.exp((lo + hi) / 2);
    }
}

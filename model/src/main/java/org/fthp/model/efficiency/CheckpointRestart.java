package org.fthp.model.efficiency;

/**
 * Expected cost of checkpoint/restart under exponential interruptions of mean
 * μ (the job's MTTI), with work τ between checkpoints of cost C and a restart
 * (relaunch + restore) of cost R; failures may strike during checkpoints and
 * restarts.
 */
public final class CheckpointRestart {

    private CheckpointRestart() {}

    /**
     * First-order waste, the share of time not spent on kept work:
     * 1 − (1 − C/(τ + C)) · (1 − (R + (τ + C)/2) / μ), clamped to [0, 1]. Each
     * period of τ + C loses C to the checkpoint; each failure (one per μ) loses
     * the restart and half a period on average. Accurate while τ + C + R ≪ μ.
     */
    public static double firstOrderWaste(double intervalSeconds, double checkpointSeconds, double restartSeconds,
                                         double mttiSeconds) {
        check(intervalSeconds, checkpointSeconds, restartSeconds, mttiSeconds);
        double period = intervalSeconds + checkpointSeconds;
        double failureFree = 1 - checkpointSeconds / period;
        double failureBound = 1 - (restartSeconds + period / 2) / mttiSeconds;
        return Math.min(1, Math.max(0, 1 - failureFree * Math.max(0, failureBound)));
    }

    /**
     * Exact expected time to complete {@code workSeconds} of work in chunks of τ,
     * each chunk but the last followed by a checkpoint: a chunk of length L
     * (work + checkpoint) takes μ · e^(R/μ) · (e^(L/μ) − 1) on average (a failure
     * anywhere, restart included, redoes the chunk after a restart).
     */
    public static double expectedMakespan(double workSeconds, double intervalSeconds, double checkpointSeconds,
                                          double restartSeconds, double mttiSeconds) {
        check(intervalSeconds, checkpointSeconds, restartSeconds, mttiSeconds);
        if (!(workSeconds > 0) || Double.isInfinite(workSeconds)) {
            throw new IllegalArgumentException("work must be a finite number of seconds > 0, not " + workSeconds);
        }
        if (Double.isInfinite(intervalSeconds)) {   // no checkpoint: one chunk of all the work
            return chunk(workSeconds, restartSeconds, mttiSeconds);
        }
        double chunks = Math.floor(workSeconds / intervalSeconds);
        double rest = workSeconds - chunks * intervalSeconds;
        if (rest <= 1e-9 * workSeconds) {   // the last full chunk is the end: no checkpoint after it
            chunks -= 1;
            rest = intervalSeconds;
        }
        return chunks * chunk(intervalSeconds + checkpointSeconds, restartSeconds, mttiSeconds)
                + chunk(rest, restartSeconds, mttiSeconds);
    }

    /** Kept work per second of wall time from {@link #expectedMakespan}. */
    public static double efficiency(double workSeconds, double intervalSeconds, double checkpointSeconds,
                                    double restartSeconds, double mttiSeconds) {
        return workSeconds / expectedMakespan(workSeconds, intervalSeconds, checkpointSeconds, restartSeconds,
                mttiSeconds);
    }

    private static double chunk(double length, double restart, double mtti) {
        return mtti * Math.exp(restart / mtti) * Math.expm1(length / mtti);
    }

    private static void check(double interval, double checkpoint, double restart, double mtti) {
        if (!(interval > 0)) {
            throw new IllegalArgumentException("interval must be > 0, not " + interval);
        }
        if (!(checkpoint >= 0) || !(restart >= 0) || Double.isInfinite(checkpoint) || Double.isInfinite(restart)) {
            throw new IllegalArgumentException("checkpoint and restart must be finite seconds >= 0, not "
                    + checkpoint + ", " + restart);
        }
        if (!(mtti > 0) || Double.isInfinite(mtti)) {
            throw new IllegalArgumentException("MTTI must be a finite number of seconds > 0, not " + mtti);
        }
    }
}

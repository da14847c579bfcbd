package org.fthp.model;

/**
 * How much work to do between two checkpoints, given the time one checkpoint
 * takes to write (C) and the mean time to interruption of the job (MTTI, the
 * system MTBF for a job without replicas, {@link JobMtti} with them).
 *
 * <p>Both intervals are compute time between the end of one checkpoint and the
 * start of the next (the checkpoint itself is not included); both assume
 * exponential interruptions. Inputs are seconds, results are seconds.
 *
 * <p>The paper's Table I gives Young's interval √(2μC), truncated (not rounded) to
 * the hundredth: 4096 ranks, μ = 4000 s, C = 114 s gives √912000 = 954.9869…, listed
 * as 954.98.
 */
public final class CheckpointInterval {

    private CheckpointInterval() {}

    /**
     * Young's first-order interval √(2·C·MTTI) (Young 1974): it minimises the
     * waste C/τ + τ/(2·MTTI) and is accurate while C ≪ MTTI.
     */
    public static double young(double checkpointCostSeconds, double mttiSeconds) {
        check(checkpointCostSeconds, mttiSeconds);
        return Math.sqrt(2 * checkpointCostSeconds * mttiSeconds);
    }

    /**
     * Daly's higher-order estimate (Daly 2006), for C &lt; 2·MTTI:
     * √(2CM)·[1 + ⅓·√(C/2M) + (1/9)·(C/2M)] − C, with M the MTTI. It corrects
     * Young's for a checkpoint cost that is not small against M and for failures
     * that strike during checkpoints and restarts.
     *
     * <p>When C ≥ 2·MTTI the series no longer converges to the optimum and Daly
     * sets the interval to the MTTI itself: this method returns {@code mttiSeconds}
     * then. A job in that regime spends most of its time checkpointing and
     * re-doing work; the planner says so instead of recommending it.
     */
    public static double daly(double checkpointCostSeconds, double mttiSeconds) {
        check(checkpointCostSeconds, mttiSeconds);
        double c = checkpointCostSeconds;
        double m = mttiSeconds;
        if (c >= 2 * m) {
            return m;
        }
        double ratio = c / (2 * m);
        return Math.sqrt(2 * c * m) * (1 + Math.sqrt(ratio) / 3 + ratio / 9) - c;
    }

    private static void check(double checkpointCostSeconds, double mttiSeconds) {
        if (!(checkpointCostSeconds > 0) || Double.isInfinite(checkpointCostSeconds)) {
            throw new IllegalArgumentException("checkpoint cost must be a finite number of seconds > 0, not "
                    + checkpointCostSeconds);
        }
        if (!(mttiSeconds > 0) || Double.isInfinite(mttiSeconds)) {
            throw new IllegalArgumentException("MTTI must be a finite number of seconds > 0, not " + mttiSeconds);
        }
    }
}

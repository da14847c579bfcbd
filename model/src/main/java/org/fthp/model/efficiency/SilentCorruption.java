package org.fthp.model.efficiency;

import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;

/**
 * The share of runs that end silently wrong, in closed form. Corruptions strike
 * each computing process as a Poisson process of rate σ; one that strikes work
 * the result keeps and that nobody checks makes the result wrong, so with U
 * unprotected processes over W seconds of kept work the share is
 * 1 − exp(−σ·U·W). Work a rollback throws away takes its corruptions with it.
 *
 * <ul>
 * <li>Checkpoint/restart: U = N, every rank (nothing compares).
 * <li>Replication without twin comparison: U = N + M, every copy (a corrupted
 * replica is promoted when its twin dies, and its sends are the rank's then).
 * <li>With comparison: U = N − M, the unreplicated ranks, plus the time replicated
 * ranks spend with one copy: with replicas restored at each commit, b·∫₀^T P₁
 * per period ({@code RestoredReplication}); without, the job ages and this
 * estimate leaves that time out (a lower bound; the simulator counts it).
 * </ul>
 */
public final class SilentCorruption {

    private SilentCorruption() {}

    public static double wrongShare(Setup setup, Machine machine, double workSeconds) {
        double rate = setup.silentErrors().ratePerProcessSecond();
        if (rate == 0) {
            return 0;
        }
        double kept = workSeconds * setup.forwardStretch();
        int n = setup.ranks();
        int m = setup.replicatedRanks();
        double processSeconds;
        if (!setup.strategy().replicates()) {
            processSeconds = n * kept;
        } else if (!setup.silentErrors().twinComparison()) {
            processSeconds = (n + m) * kept;
        } else {
            processSeconds = (n - m) * kept;
            if (setup.restoresReplicas()) {
                double period = setup.intervalSeconds() * setup.forwardStretch();
                processSeconds += setup.restoredModel(machine).oneCopySeconds(period) * kept / period;
            }
        }
        return -Math.expm1(-rate * processSeconds);
    }
}

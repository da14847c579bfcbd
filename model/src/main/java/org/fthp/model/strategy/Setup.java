package org.fthp.model.strategy;

import org.fthp.model.CheckpointInterval;
import org.fthp.model.JobMtti;
import org.fthp.model.RestoredReplication;
import org.fthp.model.calibration.Calibration;

/**
 * One strategy made concrete for a machine: how the processes split into ranks
 * and replicas, the interval between checkpoints (Daly's, from the MTTI of that
 * split) and the costs the calibration gives at that size.
 *
 * @param ranks             logical ranks N (the work is theirs)
 * @param replicatedRanks   M of them with a replica; N + M = the machine's processes
 * @param mttiSeconds       the split's MTTI under the machine's failure stream (MNFTI × system MTBF)
 * @param intervalSeconds   work between checkpoints; infinite without checkpoints
 * @param checkpointSeconds one checkpoint of N ranks' data; 0 without checkpoints
 * @param restartSeconds    relaunch (+ restore with checkpoints) after an interruption
 * @param repairSeconds     rebuild + message recovery after a failure replication survives
 * @param forwardStretch    wall time per second of failure-free work: 1 + overhead + log trimming
 * @param logTrimShare      the share of forward time that is log trimming
 * @param recovery          spares, in-place rollback and replica restoration ({@link Recovery#NONE} without
 *                          checkpoints: a rollback needs a committed checkpoint, a restoration a commit)
 * @param silentErrors      silent data corruption and whether replicated ranks' twins compare
 */
public record Setup(Strategy strategy, int ranks, int replicatedRanks, double mttiSeconds, double intervalSeconds,
                    double checkpointSeconds, double restartSeconds, double repairSeconds, double forwardStretch,
                    double logTrimShare, Recovery recovery, SilentErrors silentErrors) {

    /**
     * The split of the machine's processes for a strategy: all ranks for
     * checkpoint/restart; N = ⌈P / (1 + degree)⌉ ranks and M = P − N replicas
     * otherwise (degree 1 = dual redundancy of every rank).
     */
    public static Setup of(Strategy strategy, Machine machine, Calibration calibration, double replicationDegree) {
        return of(strategy, machine, calibration, replicationDegree, Recovery.NONE, SilentErrors.NONE);
    }

    /**
     * The same with spares and silent corruption. The spares come out of the
     * machine's processes (N + M + S = P) for strategies with checkpoints; the
     * others get none. The MTTI counts the failures spares absorb, and for
     * replicated ranks whose twins compare, the corruptions they detect (each a
     * rollback: 2σ per replicated rank). With replicas restored at each commit the
     * interval minimises {@link RestoredReplication}'s expected time per work;
     * otherwise it is Daly's from the MTTI.
     */
    public static Setup of(Strategy strategy, Machine machine, Calibration calibration, double replicationDegree,
                           Recovery recovery, SilentErrors silentErrors) {
        Recovery kept = strategy.checkpoints() ? recovery : Recovery.NONE;
        if (strategy.replicates() && !(replicationDegree > 0 && replicationDegree <= 1)) {
            throw new IllegalArgumentException("replication degree must be in (0, 1], not " + replicationDegree);
        }
        int processes = machine.processes() - kept.spares();
        if (processes < 1) {
            throw new IllegalArgumentException(kept.spares() + " spare(s) leave no process of " + machine.processes()
                    + " to compute");
        }
        int ranks = strategy.replicates() ? (int) Math.ceil(processes / (1 + replicationDegree)) : processes;
        int replicated = processes - ranks;
        if (strategy.replicates() && replicated < 1) {
            throw new IllegalArgumentException(processes + " process(es) leave no room for a replica");
        }
        double mtti = JobMtti.systemStream(ranks, replicated, machine.systemMtbfSeconds(), machine.strikes())
                * machine.processes() / processes;   // failures on spares do not count
        double detected = strategy.replicates() ? 2.0 * replicated * silentErrors.detectedRatePerCopy() : 0;
        mtti = 1 / (1 / mtti + detected);
        double checkpoint = strategy.checkpoints() ? calibration.checkpointSeconds(ranks) : 0;
        double interval = strategy.checkpoints() ? CheckpointInterval.daly(checkpoint, mtti) : Double.POSITIVE_INFINITY;
        if (strategy.replicates() && kept.restoreReplicas()) {
            interval = restored(ranks - replicated, replicated, machine, silentErrors)
                    .optimalInterval(checkpoint, kept.rollbackSeconds());
        }
        double restart = strategy.checkpoints() ? calibration.restartSeconds(ranks) : calibration.relaunchSeconds();
        double overhead = strategy.replicates() ? calibration.replicationOverhead() : 0;
        double logTrim = strategy.replicates() ? calibration.logTrimFraction() : 0;
        double stretch = 1 + overhead + logTrim;
        return new Setup(strategy, ranks, replicated, mtti, interval, checkpoint, restart,
                strategy.replicates() ? calibration.repairSeconds() : 0, stretch, logTrim / stretch, kept, silentErrors);
    }

    /** The same setup with another checkpoint interval (work seconds between checkpoints). */
    public Setup withInterval(double seconds) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("interval must be > 0, not " + seconds);
        }
        return new Setup(strategy, ranks, replicatedRanks, mttiSeconds, seconds, checkpointSeconds, restartSeconds,
                repairSeconds, forwardStretch, logTrimShare, recovery, silentErrors);
    }

    /** Spares kept beside the ranks and replicas. */
    public int spares() {
        return recovery.spares();
    }

    /** Every process the setup takes: N + M + S. */
    public int processes() {
        return ranks + replicatedRanks + recovery.spares();
    }

    /** Dead replicas come back from spares at each commit. */
    public boolean restoresReplicas() {
        return strategy.replicates() && recovery.restoreReplicas();
    }

    /** The restored-replication model of this setup on {@code machine} (exponential failures). */
    public RestoredReplication restoredModel(Machine machine) {
        return restored(ranks - replicatedRanks, replicatedRanks, machine, silentErrors);
    }

    private static RestoredReplication restored(int singles, int pairs, Machine machine, SilentErrors silentErrors) {
        return new RestoredReplication(singles, pairs, 1 / machine.mtbfPerProcessSeconds(),
                silentErrors.detectedRatePerCopy(), 1 / machine.systemMtbfSeconds());
    }

    /** Share of the machine's processes that do distinct work: N / (N + M + S). */
    public double workingShare() {
        return (double) ranks / processes();
    }
}

package org.fthp.model.strategy;

import org.fthp.model.CheckpointInterval;
import org.fthp.model.JobMtti;
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
 */
public record Setup(Strategy strategy, int ranks, int replicatedRanks, double mttiSeconds, double intervalSeconds,
                    double checkpointSeconds, double restartSeconds, double repairSeconds, double forwardStretch,
                    double logTrimShare) {

    /**
     * The split of the machine's processes for a strategy: all ranks for
     * checkpoint/restart; N = ⌈P / (1 + degree)⌉ ranks and M = P − N replicas
     * otherwise (degree 1 = dual redundancy of every rank).
     */
    public static Setup of(Strategy strategy, Machine machine, Calibration calibration, double replicationDegree) {
        if (strategy.replicates() && !(replicationDegree > 0 && replicationDegree <= 1)) {
            throw new IllegalArgumentException("replication degree must be in (0, 1], not " + replicationDegree);
        }
        int processes = machine.processes();
        int ranks = strategy.replicates() ? (int) Math.ceil(processes / (1 + replicationDegree)) : processes;
        int replicated = processes - ranks;
        if (strategy.replicates() && replicated < 1) {
            throw new IllegalArgumentException(processes + " process(es) leave no room for a replica");
        }
        double mtti = JobMtti.systemStream(ranks, replicated, machine.systemMtbfSeconds(), machine.strikes());
        double checkpoint = strategy.checkpoints() ? calibration.checkpointSeconds(ranks) : 0;
        double interval = strategy.checkpoints() ? CheckpointInterval.daly(checkpoint, mtti) : Double.POSITIVE_INFINITY;
        double restart = strategy.checkpoints() ? calibration.restartSeconds(ranks) : calibration.relaunchSeconds();
        double overhead = strategy.replicates() ? calibration.replicationOverhead() : 0;
        double logTrim = strategy.replicates() ? calibration.logTrimFraction() : 0;
        double stretch = 1 + overhead + logTrim;
        return new Setup(strategy, ranks, replicated, mtti, interval, checkpoint, restart,
                strategy.replicates() ? calibration.repairSeconds() : 0, stretch, logTrim / stretch);
    }

    /** Share of the machine's processes that do distinct work: N / (N + M). */
    public double workingShare() {
        return (double) ranks / (ranks + replicatedRanks);
    }
}

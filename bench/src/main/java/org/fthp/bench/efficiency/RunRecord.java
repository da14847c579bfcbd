package org.fthp.bench.efficiency;

import java.util.List;

/**
 * What one run of bench/efficiency.sh measured, from its run.properties (written by the script), fthp-run's
 * event log, the exit summary on stderr and the application's own output ({@link AppResult}).
 *
 * @param wallSeconds       the fthp-run command, start to exit
 * @param app               the application that ran ("HPCG", "CloverLeaf")
 * @param completed         exit 0 and a valid result by the application's own check
 * @param work              the useful work the application reported (its unit: HPCG flops, CloverLeaf cell updates)
 * @param answer            a digest of the result, to compare with the failure-free run's ("": not compared)
 * @param failures          failure-injected events (every incarnation)
 * @param restarts          job-restarted events
 * @param checkpointCosts   costSeconds of each committed checkpoint (the slowest rank's)
 * @param intervalSeconds   the last checkpoint interval the primary announced (NaN: none)
 * @param lostWorkSeconds   sum over restarts: work since the checkpoint restarted from
 * @param relaunchSeconds   sum over restarts: abort to the new mpirun
 * @param repairs           repairs the summary counts (processes that reached Finalize)
 * @param repairMedianMs    median survivor repair time, ms (0 without repairs)
 * @param logTrimMs         log trimming, the process with most, ms
 * @param loadBefore        1-minute load average before the run
 */
public record RunRecord(Mode mode, long seed, int ranks, int replicas, double mtbfPerProcessSeconds,
                        double wallSeconds, int exitCode, String app, boolean completed, double work,
                        String answer, int failures,
                        int restarts, List<Double> checkpointCosts, double intervalSeconds, double lostWorkSeconds,
                        double relaunchSeconds, int repairs, double repairMedianMs, double logTrimMs,
                        double loadBefore) {

    public int processes() {
        return ranks + replicas;
    }

    public double checkpointSeconds() {
        return checkpointCosts.stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Communicator rebuild + message recovery: repairs × their median (per-repair times are not reported). */
    public double repairSeconds() {
        return repairs * repairMedianMs / 1000;
    }

    public double logTrimSeconds() {
        return logTrimMs / 1000;
    }
}

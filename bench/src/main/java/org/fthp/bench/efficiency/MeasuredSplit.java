package org.fthp.bench.efficiency;

/**
 * Where one run's wall time went, Fig. 12's categories (seconds), from what fthp-run reports. Useful work is the
 * wall time of the same layout without failures (the median failure-free run; a run's own wall time for a
 * failure-free mode), less log trimming; the restart column is what is left once the reported figures are taken
 * away: the relaunched program's start-up (JVM, MPI_Init, HPCG's problem build, reading the checkpoint) and
 * whatever else the run lost (noise of a shared machine included), so it can come out negative.
 *
 * @param useful     failure-free time of the work kept
 * @param checkpoint committed checkpoints' costs
 * @param restart    the remainder: start-up after restarts, restores, and other losses
 * @param lostWork   work redone after restarts (fthp-run's lostWorkSeconds)
 * @param relaunch   abort to the new mpirun (fthp-run's restartSeconds)
 * @param repair     repairs × their median survivor time
 * @param logTrim    message-log trimming, the process with most
 */
public record MeasuredSplit(double useful, double checkpoint, double restart, double lostWork, double relaunch,
                            double repair, double logTrim) {

    static MeasuredSplit of(RunRecord run, double failureFreeWall) {
        double trim = run.logTrimSeconds();
        double useful;
        if (run.mode().strategy().isEmpty()) {
            useful = run.wallSeconds() - trim;
        } else {
            useful = run.completed() ? Math.max(0, Math.min(run.wallSeconds(), failureFreeWall) - trim) : 0;
        }
        double known = useful + run.checkpointSeconds() + run.lostWorkSeconds() + run.relaunchSeconds()
                + run.repairSeconds() + trim;
        return new MeasuredSplit(useful, run.checkpointSeconds(), run.wallSeconds() - known, run.lostWorkSeconds(),
                run.relaunchSeconds(), run.repairSeconds(), trim);
    }

    /** The paper's rollback: lost work + relaunch + communicator rebuild and message recovery. */
    public double rollback() {
        return lostWork + relaunch + repair;
    }

    public double total() {
        return useful + checkpoint + restart + rollback() + logTrim;
    }

    MeasuredSplit plus(MeasuredSplit o) {
        return new MeasuredSplit(useful + o.useful, checkpoint + o.checkpoint, restart + o.restart,
                lostWork + o.lostWork, relaunch + o.relaunch, repair + o.repair, logTrim + o.logTrim);
    }

    MeasuredSplit times(double f) {
        return new MeasuredSplit(useful * f, checkpoint * f, restart * f, lostWork * f, relaunch * f, repair * f,
                logTrim * f);
    }
}

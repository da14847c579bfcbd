package org.fthp.model.sim;

/**
 * Where a job's wall time went, the categories of the paper's Fig. 12 (seconds).
 * Rollback is split into the work lost to a rollback and the repairs (communicator
 * rebuild + message recovery) of failures that replication survived.
 *
 * @param useful     forward execution whose work is kept (with replication's slowdown)
 * @param checkpoint writing checkpoints, interrupted writes included
 * @param restart    relaunching and restoring after interruptions
 * @param lostWork   forward execution thrown away by a rollback
 * @param repair     repairs after failures survived by replication
 * @param logTrim    trimming message logs
 */
public record TimeSplit(double useful, double checkpoint, double restart, double lostWork, double repair,
                        double logTrim) {

    public static final TimeSplit ZERO = new TimeSplit(0, 0, 0, 0, 0, 0);

    public double total() {
        return useful + checkpoint + restart + lostWork + repair + logTrim;
    }

    /** The paper's rollback: lost work + rebuild + message recovery. */
    public double rollback() {
        return lostWork + repair;
    }

    public TimeSplit plus(TimeSplit o) {
        return new TimeSplit(useful + o.useful, checkpoint + o.checkpoint, restart + o.restart,
                lostWork + o.lostWork, repair + o.repair, logTrim + o.logTrim);
    }

    public TimeSplit times(double factor) {
        return new TimeSplit(useful * factor, checkpoint * factor, restart * factor, lostWork * factor,
                repair * factor, logTrim * factor);
    }

    /** Each category as a share of the total. */
    public TimeSplit shares() {
        double t = total();
        return t > 0 ? times(1 / t) : ZERO;
    }
}

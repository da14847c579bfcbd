package org.fthp.model.strategy;

/**
 * How a job that lost a rank's every copy comes back when it keeps warm spares
 * (fthp-run {@code --spares S}): while a spare is free and a checkpoint is
 * committed, the survivors roll back in place and a spare takes the lost rank,
 * for {@code rollbackSeconds}; otherwise the job is relaunched (the calibration's
 * relaunch + restore), which also starts a fresh pool of S spares. With
 * {@code restoreReplicas}, every rank left without its replica gets a free spare
 * as its replica at the next commit (one rollback that loses nothing), and a
 * rollback brings back every dead replica it has spares for: the replicated job
 * no longer ages between relaunches.
 *
 * @param spares          idle processes the job keeps, taken from the machine's processes
 * @param rollbackSeconds in-place rollback, from the loss of the last copy to every rank back at work
 * @param restoreReplicas dead replicas come back from spares at each commit
 */
public record Recovery(int spares, double rollbackSeconds, boolean restoreReplicas) {

    /** No spares: every interruption is a relaunch, as without this feature. */
    public static final Recovery NONE = new Recovery(0, 0, false);

    public Recovery {
        if (spares < 0) {
            throw new IllegalArgumentException("spares must be >= 0, not " + spares);
        }
        if (!(rollbackSeconds >= 0) || Double.isInfinite(rollbackSeconds)) {
            throw new IllegalArgumentException("rollback must be a finite number of seconds >= 0, not "
                    + rollbackSeconds);
        }
        if (restoreReplicas && spares == 0) {
            throw new IllegalArgumentException("restoring replicas needs spares");
        }
    }

    public boolean hasSpares() {
        return spares > 0;
    }
}

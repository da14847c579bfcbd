package org.fthp.replication.runtime;

import org.fthp.replication.error.MpiError;
import org.fthp.replication.output.RankOutput;

/**
 * Which run of the job this is, as fthp-run launched it: the first, or the
 * K-th restart after a rank lost every copy, and the committed checkpoint
 * epoch that restart resumes from (docs/DESIGN.md §12).
 *
 * @param restart     0 for the job's first run, K for its K-th restart
 * @param epoch       the committed epoch to recover, -1 when there is none (the program starts over)
 * @param firstEpoch  the first epoch this run writes: above every epoch an earlier run may have left in flight
 * @param checkpoints whether the job has checkpoint storage (the coordinators hold pieces)
 */
public record Incarnation(int restart, long epoch, long firstEpoch, boolean checkpoints) {

    public static final String ENABLED_ENV = "FTHP_CHECKPOINT_ENABLED";
    public static final String RESTART_ENV = "FTHP_CHECKPOINT_RESTART";
    public static final String EPOCH_ENV = "FTHP_CHECKPOINT_EPOCH";
    public static final String FIRST_EPOCH_ENV = "FTHP_CHECKPOINT_FIRST_EPOCH";

    /** What fthp-run said; without its variables, a first run without checkpoints. */
    public static Incarnation fromEnvironment() {
        long epoch = number(EPOCH_ENV, -1);
        return new Incarnation((int) number(RESTART_ENV, 0), epoch,
                Math.max(number(FIRST_EPOCH_ENV, 1), Math.max(epoch, 0) + 1), "1".equals(System.getenv(ENABLED_ENV)));
    }

    /**
     * The run after a rollback in place: it resumes from committed {@code epoch} and numbers its checkpoints from
     * {@code firstEpoch}, as a restart would, with the same processes but the lost rank's spare.
     */
    public Incarnation rolledBack(long epoch, long firstEpoch) {
        return new Incarnation(restart + 1, epoch, firstEpoch, true);
    }

    /** Whether this run resumes from a checkpoint the program must recover. */
    public boolean fromCheckpoint() {
        return restart > 0 && epoch >= 0;
    }

    /** How each copy's output starts in this run. */
    public RankOutput.Start outputStart() {
        return restart == 0 ? RankOutput.Start.FRESH
                : epoch >= 0 ? RankOutput.Start.FROM_CHECKPOINT : RankOutput.Start.AGAIN;
    }

    private static long number(String name, long otherwise) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            return otherwise;
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new MpiError(MpiError.ERR_OTHER, name + " must be a number, got '" + v + "'");
        }
    }
}

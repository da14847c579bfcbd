package org.fthp.model.strategy;

/** The ways a job of a fixed number of processes can survive failures (the paper's §VII compares them). */
public enum Strategy {
    /** Every process computes; coordinated checkpoints; an interruption is any failure. */
    CHECKPOINT_RESTART("checkpoint/restart", false, true),
    /** Some or all ranks have a replica; no checkpoint: losing both copies of a rank restarts the job from scratch. */
    REPLICATION("replication", true, false),
    /** Replicas and checkpoints at the interval of the replicated job's MTTI. */
    REPLICATION_CHECKPOINT("replication + checkpoints", true, true);

    private final String label;
    private final boolean replicates;
    private final boolean checkpoints;

    Strategy(String label, boolean replicates, boolean checkpoints) {
        this.label = label;
        this.replicates = replicates;
        this.checkpoints = checkpoints;
    }

    public String label() {
        return label;
    }

    public boolean replicates() {
        return replicates;
    }

    public boolean checkpoints() {
        return checkpoints;
    }
}

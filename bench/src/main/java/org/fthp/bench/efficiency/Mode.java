package org.fthp.bench.efficiency;

import java.util.Optional;
import org.fthp.model.strategy.Strategy;

/**
 * The runs bench/efficiency.sh makes on the same P processes (the paper's §VII modes, plus the failure-free
 * replicated run that measures replication's own cost). The name is the directory the script writes a run to.
 */
public enum Mode {
    BASELINE("baseline", "failure-free, P ranks (baseline)", false, null),
    REPLICATED_FREE("replicated-free", "failure-free, P/2 ranks + P/2 replicas", true, null),
    CHECKPOINT_RESTART("checkpoint-restart", "checkpoint/restart, P ranks", false, Strategy.CHECKPOINT_RESTART),
    REPLICATION("replication", "replication, P/2 + P/2 replicas", true, Strategy.REPLICATION),
    REPLICATION_CHECKPOINT("replication-checkpoint", "replication + checkpoints", true,
            Strategy.REPLICATION_CHECKPOINT);

    private final String directory;
    private final String label;
    private final boolean replicated;
    private final Strategy strategy;

    Mode(String directory, String label, boolean replicated, Strategy strategy) {
        this.directory = directory;
        this.label = label;
        this.replicated = replicated;
        this.strategy = strategy;
    }

    public String directory() {
        return directory;
    }

    public String label() {
        return label;
    }

    /** Half the processes are replicas. */
    public boolean replicated() {
        return replicated;
    }

    /** The model's strategy for a mode run under failures; empty for the failure-free runs. */
    public Optional<Strategy> strategy() {
        return Optional.ofNullable(strategy);
    }

    /** The failure-free run whose wall time is this mode's useful work (same layout, no failures). */
    public Mode failureFree() {
        return replicated ? REPLICATED_FREE : BASELINE;
    }

    public static Mode ofDirectory(String name) {
        for (Mode m : values()) {
            if (m.directory.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode directory \"" + name + "\"");
    }
}

package org.fthp.coordinator.checkpoint;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

import org.fthp.checkpoint.store.JobIdentity;

/**
 * A coordinator's checkpoint settings.
 *
 * @param memoryLimitBytes  the most piece bytes this coordinator holds (its ranks' pieces and its partners' copies)
 * @param directory         where committed epochs are written, if anywhere
 * @param diskEvery         write every k-th committed epoch to the directory (1: every one)
 * @param interval          the primary's timer: when a checkpoint is due (unused on other nodes)
 * @param job               the program the directory's manifests record (a later job resumes only its own)
 * @param restoreReplicas   the primary restores a rank's lost replica from a free spare at the next checkpoint
 *                          (fthp-run's {@code --restore-replicas}; on by default)
 */
public record CheckpointConfig(long memoryLimitBytes, Optional<Path> directory, int diskEvery,
                               IntervalPolicy interval, Optional<JobIdentity> job, boolean restoreReplicas) {
    /**
     * 512 MiB per coordinator: two epochs of an 8-rank job of 32 MiB per rank with their partner copies, well
     * within the memory of a node that runs the job. The launcher sizes the coordinator's heap from it.
     */
    public static final long DEFAULT_MEMORY_BYTES = 512L << 20;
    /**
     * Every committed epoch goes to disk by default: the copy is written in the background by the coordinators,
     * not by the ranks, so it costs the job little, and a crash of the whole job then loses at most one epoch.
     */
    public static final int DEFAULT_DISK_EVERY = 1;

    public static final CheckpointConfig DEFAULT =
            new CheckpointConfig(DEFAULT_MEMORY_BYTES, Optional.empty(), DEFAULT_DISK_EVERY, IntervalPolicy.NEVER,
                    Optional.empty(), true);

    public CheckpointConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(job, "job");
        if (memoryLimitBytes <= 0 || diskEvery <= 0) {
            throw new IllegalArgumentException("need memory limit > 0 and disk-every > 0: " + memoryLimitBytes
                    + ", " + diskEvery);
        }
    }

    /** Replicas restored from spares (the default). */
    public CheckpointConfig(long memoryLimitBytes, Optional<Path> directory, int diskEvery, IntervalPolicy interval,
                            Optional<JobIdentity> job) {
        this(memoryLimitBytes, directory, diskEvery, interval, job, true);
    }

    public CheckpointConfig withReplicaRestoration(boolean on) {
        return new CheckpointConfig(memoryLimitBytes, directory, diskEvery, interval, job, on);
    }

    public CheckpointConfig withInterval(IntervalPolicy policy) {
        return new CheckpointConfig(memoryLimitBytes, directory, diskEvery, policy, job, restoreReplicas);
    }

    public CheckpointConfig withMemoryLimit(long bytes) {
        return new CheckpointConfig(bytes, directory, diskEvery, interval, job, restoreReplicas);
    }

    /** Where this host's pieces live in memory: {@link PieceDirectory#hostDefault()}. */
    public Path pieceDirectory() {
        return PieceDirectory.hostDefault();
    }

    public CheckpointConfig withDirectory(Path dir, int every) {
        return new CheckpointConfig(memoryLimitBytes, Optional.of(dir), every, interval, job, restoreReplicas);
    }

    public CheckpointConfig withJob(JobIdentity identity) {
        return new CheckpointConfig(memoryLimitBytes, directory, diskEvery, interval, Optional.of(identity),
                restoreReplicas);
    }
}

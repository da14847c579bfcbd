package org.fthp.launcher;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

import org.fthp.checkpoint.store.JobIdentity;

/**
 * Checkpoints and restarts, as the command line asked.
 *
 * @param interval        {@code --checkpoint-interval}: seconds, or {@code auto} (Daly's interval); empty: no timer
 * @param directory       {@code --checkpoint-dir}: where committed epochs are also written (checked writable at start)
 * @param memoryBytes     {@code --checkpoint-memory}: the most piece bytes each coordinator holds
 * @param diskEvery       {@code --checkpoint-disk-every}: write every k-th committed epoch to the directory
 * @param restarts        {@code --restart K}: relaunches allowed when a rank loses every copy (0: exit 4 as before)
 * @param restartReplicas {@code --restart-replicas M2}: the replication degree of relaunched jobs (default: the same)
 * @param mtbfPerProcess  the per-process MTBF the user gave (--mtbf-per-process, or --mtbf × processes), for auto
 * @param resume          {@code --resume}: what a directory holding an earlier job's checkpoints means
 *                        ({@link #RESUME_AUTO}, {@link #RESUME_NEVER}, {@link #RESUME_FORCE})
 * @param job             the program the directory's manifests record (set once the program is resolved)
 * @param restoreReplicas {@code --restore-replicas on|off}: a rank's lost replica comes back from a free spare at the
 *                        next checkpoint (on by default; it needs spares and a program that uses the resilient entry)
 */
public record CheckpointPlan(Optional<String> interval, Optional<Path> directory, long memoryBytes, int diskEvery,
                             int restarts, OptionalInt restartReplicas, OptionalDouble mtbfPerProcess,
                             String resume, Optional<JobIdentity> job, boolean restoreReplicas) {

    /** Replicas restored from spares (the default). */
    public CheckpointPlan(Optional<String> interval, Optional<Path> directory, long memoryBytes, int diskEvery,
                          int restarts, OptionalInt restartReplicas, OptionalDouble mtbfPerProcess, String resume,
                          Optional<JobIdentity> job) {
        this(interval, directory, memoryBytes, diskEvery, restarts, restartReplicas, mtbfPerProcess, resume, job,
                true);
    }

    /** Resume from the newest usable epoch of the same program; refuse another program's directory. */
    public static final String RESUME_AUTO = "auto";
    /** Start from the beginning; earlier epochs are moved aside into {@code DIR/previous-K}, never deleted. */
    public static final String RESUME_NEVER = "never";
    /** As auto, and also from a manifest of the older format that does not record its program. */
    public static final String RESUME_FORCE = "force";
    public static final Set<String> RESUME_MODES = Set.of(RESUME_AUTO, RESUME_NEVER, RESUME_FORCE);

    /** What a coordinator holds by default (the coordinator's own default, repeated so --help can say it). */
    public static final long DEFAULT_MEMORY_BYTES = 512L << 20;
    public static final int DEFAULT_DISK_EVERY = 1;

    public static final CheckpointPlan NONE = new CheckpointPlan(Optional.empty(), Optional.empty(),
            DEFAULT_MEMORY_BYTES, DEFAULT_DISK_EVERY, 0, OptionalInt.empty(), OptionalDouble.empty(), RESUME_AUTO,
            Optional.empty());

    /** The same plan, recording {@code identity} in the directory's manifests. */
    public CheckpointPlan withJob(JobIdentity identity) {
        return new CheckpointPlan(interval, directory, memoryBytes, diskEvery, restarts, restartReplicas,
                mtbfPerProcess, resume, Optional.of(identity), restoreReplicas);
    }

    /** Whether the job has anything to do with checkpoints (then it needs coordinators). */
    public boolean wanted() {
        return interval.isPresent() || directory.isPresent() || restarts > 0;
    }

    /** The replication degree of incarnation {@code k} (0 is the first run). */
    public int replicasOf(int incarnation, int firstReplicas) {
        return incarnation == 0 ? firstReplicas : restartReplicas.orElse(firstReplicas);
    }
}

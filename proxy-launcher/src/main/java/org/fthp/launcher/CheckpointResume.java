package org.fthp.launcher;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.fthp.checkpoint.store.CheckpointStore;
import org.fthp.checkpoint.store.JobIdentity;
import org.fthp.checkpoint.store.Manifest;

/**
 * What a {@code --checkpoint-dir} that already holds something means for a new job (a batch job resubmitted after
 * its time limit, requeued, or run again after its launcher was killed), as SCR and FTI users expect: the same
 * program (main class or jar, arguments, N; the manifest records them) resumes from the newest committed epoch
 * whose pieces all verify, possibly with another replication degree, and numbers its own epochs above everything
 * there; another program's directory is refused (exit 3) and left as it is; {@code --resume never} moves the
 * earlier epochs aside, never deleting them. The ranks' output files live in {@code DIR/output} with how far
 * fthp-run printed them ({@link PrintedPositions}), so a resumed job prints from there on.
 *
 * <p>The directory is locked for the job's life ({@code DIR/.fthp-run.lock}, released by the kernel when fthp-run
 * ends, however it ends): two jobs never write one directory.
 */
final class CheckpointResume {

    static final String OUTPUT_DIR = "output";
    /** In {@link #OUTPUT_DIR}: the job whose output files these are ({@link JobIdentity#token}). */
    static final String OUTPUT_JOB = "JOB";
    static final String LOCK = ".fthp-run.lock";

    /** Held until fthp-run exits. */
    private static FileLock held;

    private final Path dir;
    private final JobIdentity job;
    private final String mode;
    private final PrintStream err;

    CheckpointResume(Path dir, JobIdentity job, String mode, PrintStream err) {
        this.dir = dir.toAbsolutePath();
        this.job = job;
        this.mode = mode;
        this.err = err;
    }

    Path outputDirectory() {
        return dir.resolve(OUTPUT_DIR);
    }

    /** Decides where the job starts, locks the directory, and prepares its output files' directory. */
    ResumePoint decide(Optional<Path> events) throws LaunchException {
        try {
            CheckpointStore store = CheckpointStore.open(dir);
            if (mode.equals(CheckpointPlan.RESUME_NEVER)) {
                lock();
                Optional<Path> aside = store.moveAside(List.of(OUTPUT_DIR));
                aside.ifPresent(p -> err.println("fthp-run: --resume never: what " + dir + " held is now in " + p
                        + "; starting from the beginning"));
                prepareOutput(false);
                return ResumePoint.FRESH;
            }
            long first = Math.max(1, store.highestEpoch() + 1);
            Optional<Manifest> usable = Optional.empty();
            for (long epoch : store.committedEpochs()) {
                Manifest m;
                try {
                    m = store.readManifest(epoch);
                } catch (IOException e) {
                    err.println("fthp-run: checkpoint epoch " + epoch + " in " + dir + " is not usable ("
                            + e.getMessage() + "); trying the one before");
                    continue;
                }
                checkSameJob(m);
                try {
                    usable = Optional.of(store.verifyEpoch(epoch));
                    break;
                } catch (IOException e) {
                    err.println("fthp-run: checkpoint epoch " + epoch + " in " + dir + " is not usable ("
                            + e.getMessage() + "); trying the one before");
                }
            }
            boolean output = checkOutput();
            lock();
            prepareOutput(output);
            if (usable.isPresent()) {
                long epoch = usable.get().epoch();
                err.println("fthp-run: resuming from checkpoint epoch " + epoch + " in " + dir
                        + "; this job's checkpoints are epochs " + first + " on");
                events.ifPresent(e -> resumedEvent(e, epoch, first));
                return new ResumePoint(epoch, first, output);
            }
            if (output) {
                err.println("fthp-run: no usable checkpoint in " + dir + ": starting from the beginning; the output"
                        + " goes on after what the earlier job printed");
            } else if (!store.committedEpochs().isEmpty() || first > 1) {
                err.println("fthp-run: no usable checkpoint in " + dir + ": starting from the beginning");
            }
            return new ResumePoint(-1, first, output);
        } catch (IOException e) {
            throw LaunchException.environment("--checkpoint-dir " + dir + ": " + e.getMessage());
        }
    }

    /**
     * A relaunch within this job after its coordinators were replaced: the newest committed epoch on disk whose
     * pieces verify (this job's own, written by the old coordinator set), epochs numbered above everything there and
     * at least {@code minFirst}.
     */
    static ResumePoint onDisk(Path dir, long minFirst, PrintStream err) throws LaunchException {
        try {
            CheckpointStore store = CheckpointStore.open(dir);
            long first = Math.max(minFirst, store.highestEpoch() + 1);
            for (long epoch : store.committedEpochs()) {
                try {
                    store.verifyEpoch(epoch);
                    return new ResumePoint(epoch, first, true);
                } catch (IOException e) {
                    err.println("fthp-run: checkpoint epoch " + epoch + " in " + dir + " is not usable ("
                            + e.getMessage() + "); trying the one before");
                }
            }
            return new ResumePoint(-1, first, true);
        } catch (IOException e) {
            throw LaunchException.environment("--checkpoint-dir " + dir + ": " + e.getMessage());
        }
    }

    private void checkSameJob(Manifest m) throws LaunchException {
        if (m.job().isEmpty()) {
            if (!mode.equals(CheckpointPlan.RESUME_FORCE)) {
                throw LaunchException.environment("--checkpoint-dir " + dir + " holds checkpoints (epoch " + m.epoch()
                        + ") that do not say which program wrote them (an older fthp-run's); nothing was changed:"
                        + " --resume force resumes from them, --resume never moves them aside");
            }
            if (m.ranks() != job.ranks()) {
                throw LaunchException.environment("--checkpoint-dir " + dir + " holds checkpoints of " + m.ranks()
                        + " ranks, not " + job.ranks() + "; nothing was changed: give another directory, or"
                        + " --resume never to move them aside");
            }
            return;
        }
        String difference = m.job().get().difference(job);
        if (!difference.isEmpty()) {
            throw LaunchException.environment("--checkpoint-dir " + dir + " holds the checkpoints of another job ("
                    + difference + "); nothing was changed: give another directory, or"
                    + " --resume never to move them aside");
        }
    }

    /** Whether an earlier job's output files are there; refused if they are another job's. */
    private boolean checkOutput() throws IOException, LaunchException {
        Path output = outputDirectory();
        if (!Files.isDirectory(output)) {
            return false;
        }
        String token;
        try {
            token = Files.readString(output.resolve(OUTPUT_JOB), StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return false;
        }
        JobIdentity theirs;
        try {
            theirs = JobIdentity.fromToken(token);
        } catch (IllegalArgumentException e) {
            throw LaunchException.environment(output.resolve(OUTPUT_JOB) + " is not readable (" + e.getMessage()
                    + "); nothing was changed: --resume never moves it aside");
        }
        String difference = theirs.difference(job);
        if (!difference.isEmpty()) {
            throw LaunchException.environment("--checkpoint-dir " + dir + " holds the output of another job ("
                    + difference + "); nothing was changed: give another directory, or"
                    + " --resume never to move it aside");
        }
        return true;
    }

    private void prepareOutput(boolean continuing) throws IOException {
        Path output = outputDirectory();
        if (!continuing && Files.exists(output)) {
            // output files without a JOB record (cut short at their creation): kept, beside the new ones
            Files.move(output, dir.resolve(OUTPUT_DIR + ".unrecorded-" + System.currentTimeMillis()));
        }
        Files.createDirectories(output);
        if (!continuing) {
            Path temp = output.resolve(OUTPUT_JOB + ".tmp");
            Files.writeString(temp, job.token() + "\n", StandardCharsets.UTF_8);
            Files.move(temp, output.resolve(OUTPUT_JOB), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private void lock() throws IOException, LaunchException {
        FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.tryLock();
        if (lock == null) {
            ch.close();
            throw LaunchException.environment("--checkpoint-dir " + dir + " is in use by another fthp-run (it holds "
                    + dir.resolve(LOCK) + ")");
        }
        held = lock;
    }

    private void resumedEvent(Path events, long epoch, long first) {
        String line = String.format(Locale.ROOT, "{\"time\":\"%s\",\"event\":\"job-resumed\",\"epoch\":%d,"
                + "\"from\":\"%s\",\"firstEpoch\":%d}", Instant.now(), epoch,
                dir.resolve("epoch-" + epoch).toString().replace("\\", "\\\\").replace("\"", "\\\""), first);
        try (BufferedWriter out = Files.newBufferedWriter(events, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            out.write(line + System.lineSeparator());
        } catch (IOException e) {
            err.println("fthp-run: cannot write " + events + ": " + e.getMessage());
        }
    }
}

package org.fthp.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A job that runs while the test acts on it (crashes a host when its output says so, looks at it afterwards): its
 * output goes to files, every process it starts is sampled while the test waits (as {@link MpiJob#exec} does), and
 * {@link #close} kills what is left of it by handle. {@link #await} ends it as a {@link MpiJob.Result}.
 */
final class BackgroundJob implements AutoCloseable {

    /** How often {@link #await} samples the job's processes (a wait for its output looks every 50 ms). */
    private static final long AWAIT_SAMPLE_MS = 200;

    private final List<String> command;
    private final Process process;
    private final Path out;
    private final Path err;
    private final JobProcesses processes = new JobProcesses();

    private BackgroundJob(List<String> command, Process process, Path out, Path err) {
        this.command = command;
        this.process = process;
        this.out = out;
        this.err = err;
    }

    static BackgroundJob start(List<String> command, Map<String, String> env) throws IOException {
        Path out = Files.createTempFile("fthp-job", ".out");
        Path err = Files.createTempFile("fthp-job", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(env);
        return new BackgroundJob(command, pb.start(), out, err);
    }

    /**
     * Waits until the job's stdout satisfies {@code condition}, sampling its processes; false if the job ended
     * first or {@code limit} passed.
     */
    boolean awaitStdout(Predicate<String> condition, Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        do {
            processes.sample(process.toHandle());
            if (condition.test(stdout())) {
                return true;
            }
        } while (!process.waitFor(50, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline);
        return condition.test(stdout());
    }

    /** Whether the job's first process is still running, {@code after} from now (its processes sampled meanwhile). */
    boolean aliveAfter(Duration after) throws InterruptedException {
        long deadline = System.nanoTime() + after.toNanos();
        while (System.nanoTime() < deadline) {
            processes.sample(process.toHandle());
            if (process.waitFor(50, TimeUnit.MILLISECONDS)) {
                return false;
            }
        }
        return process.isAlive();
    }

    /** Asks the job's first process to stop (SIGTERM), as fthp-run asks a launcher. */
    void terminate() {
        processes.sample(process.toHandle());
        process.destroy();
    }

    long pid() {
        return process.pid();
    }

    String stdout() throws IOException {
        return Files.readString(out);
    }

    String stderr() throws IOException {
        return Files.readString(err);
    }

    /**
     * The job's end within {@code limit}; a job that outlives it fails with where its processes were
     * ({@link HangReport}) and is killed (by its process tree). Its
     * processes are sampled every {@value #AWAIT_SAMPLE_MS} ms: one look at a process tree reads /proc and costs
     * milliseconds of CPU here, which every test job waits through.
     */
    MpiJob.Result await(Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        boolean ended;
        do {
            processes.sample(process.toHandle());
            ended = process.waitFor(AWAIT_SAMPLE_MS, TimeUnit.MILLISECONDS);
        } while (!ended && System.nanoTime() < deadline);
        if (!ended) {
            String where = HangReport.of(process.toHandle());
            MpiJob.killTree(process.toHandle());
            processes.leftovers(Duration.ZERO);
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("job did not end within " + limit + ": " + String.join(" ", command)
                    + "\n--- stdout ---\n" + stdout() + "\n--- stderr ---\n" + stderr() + "\n" + where);
        }
        return new MpiJob.Result(process.exitValue(), stdout(), stderr(), command, processes);
    }

    /**
     * Runs {@code command} to its end within {@code limit}, doing {@code failure} (a crash, a cut) once its stdout
     * holds {@code trigger}; fails if the job ends before printing it. The result's processes are left for the
     * test's own leftover check.
     */
    static MpiJob.Result runFailing(List<String> command, String trigger, Runnable failure, Duration limit)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        BackgroundJob job = start(command, Map.of());
        try {
            if (!job.awaitStdout(out -> out.contains(trigger), limit)) {
                String said = job.process.isAlive() ? "printed no '" + trigger + "' within " + limit
                        : "ended before printing '" + trigger + "'";
                throw new AssertionError("the job " + said + ": " + String.join(" ", command)
                        + "\n--- stdout ---\n" + job.stdout() + "\n--- stderr ---\n" + job.stderr());
            }
            failure.run();
            return job.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        } finally {
            job.discard();
        }
    }

    /**
     * Kills the job if it still runs (by its process tree) and deletes its output files; what an ended job left
     * running stays for {@link MpiJob.Result#assertNoLeftovers}.
     */
    void discard() throws IOException {
        if (process.isAlive()) {
            MpiJob.killTree(process.toHandle());
            processes.leftovers(Duration.ZERO);
        }
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
    }

    /** Kills whatever is left of the job, ended or not, and deletes its output files. */
    @Override
    public void close() throws IOException {
        discard();
        processes.leftovers(Duration.ZERO);
    }
}

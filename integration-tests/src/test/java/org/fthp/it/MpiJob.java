package org.fthp.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Launches a real MPI job with {@code bin/fthp-run} and collects what it did.
 * Every job has a deadline; on expiry the launcher and every process it
 * started are killed by pid (never by name) and the test fails.
 */
public final class MpiJob {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    /**
     * The native MPI every job runs on unless a test names one ({@code -Dfthp.mpi=openmpi|mpich}, given to
     * fthp-run as {@code --mpi}); unset: {@link #MPI_ENV}, then fthp-run's default (Open MPI when installed).
     */
    public static final String MPI_PROPERTY = "fthp.mpi";

    /**
     * The same switch from the environment ({@code FTHP_TEST_MPI=mpich}), set once for a script's several Maven
     * runs (scripts/mpich-suite.sh).
     */
    public static final String MPI_ENV = "FTHP_TEST_MPI";

    public record Result(int exitCode, String stdout, String stderr, List<String> command, JobProcesses processes) {

        /** How long a job's processes may take to go once the launcher has exited. */
        private static final Duration TEARDOWN = Duration.ofSeconds(10);

        /**
         * Fails with everything the job printed unless it exited 0 and left no
         * process behind (every process it started, checked by handle).
         */
        public Result assertSuccess() {
            if (exitCode != 0) {
                throw new AssertionError("job failed with exit code " + exitCode + "\ncommand: "
                        + String.join(" ", command) + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr);
            }
            return assertNoLeftovers();
        }

        /** Fails if a process the job started outlives it (after a short teardown); kills those that do. */
        public Result assertNoLeftovers() {
            List<String> left = processes.leftovers(TEARDOWN);
            if (!left.isEmpty()) {
                throw new AssertionError("the job ended but left processes running (now killed): " + left
                        + "\ncommand: " + String.join(" ", command));
            }
            return this;
        }

        public List<String> lines() {
            return stdout.lines().toList();
        }

        /**
         * How many processes of the job ran {@code mainClass} (ranks and spares, not fthp-run): a job that recovered
         * without a relaunch started no more than its first launch did.
         */
        public long programProcesses(Class<?> mainClass) {
            return processes.javaProcessesRunning(mainClass.getName());
        }
    }

    private MpiJob() {}

    public static Path home() {
        return Path.of(System.getProperty("fthp.home", "..")).toAbsolutePath().normalize();
    }

    /** Runs a program that prints "{@code <Name> OK np=<n>}" when every check passed, and demands that line. */
    public static Result runOk(int np, Class<?> program, String... args) {
        Result r = run(np, program, args).assertSuccess();
        String ok = program.getSimpleName() + " OK np=" + np;
        if (!r.stdout().contains(ok)) {
            throw new AssertionError("expected '" + ok + "' in stdout:\n" + r.stdout() + "\n--- stderr ---\n" + r.stderr());
        }
        return r;
    }

    public static Result run(int np, Class<?> program, String... args) {
        return run(np, DEFAULT_TIMEOUT, program, args);
    }

    public static Result run(int np, Duration timeout, Class<?> program, String... args) {
        return runWith(List.of(), np, timeout, program, args);
    }

    /** As {@link #run}, with fthp-run options (before "--") such as {@code --nodes 2}. */
    public static Result runWith(List<String> launcherOptions, int np, Duration timeout, Class<?> program,
                                 String... args) {
        return runWith(launcherOptions, java.util.Map.of(), np, timeout, program, args);
    }

    /** As above, with extra environment variables for the launcher and every process. */
    public static Result runWith(List<String> launcherOptions, java.util.Map<String, String> env, int np,
                                 Duration timeout, Class<?> program, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(home().resolve("bin/fthp-run").toString());
        cmd.add("-np");
        cmd.add(Integer.toString(np));
        String mpi = testMpi();
        if (!mpi.isEmpty() && !launcherOptions.contains("--mpi")) {
            cmd.add("--mpi");
            cmd.add(mpi);
        }
        cmd.addAll(launcherOptions);
        cmd.add("--");
        cmd.add("-XX:TieredStopAtLevel=1");
        // no hsperfdata file: a pid whose file another JVM still holds makes the JVM warn on stdout, which the
        // tests compare
        cmd.add("-XX:-UsePerfData");
        cmd.add("-Xss2m");
        cmd.add("-cp");
        cmd.add(System.getProperty("fthp.programs", "target/classes"));
        cmd.add(program.getName());
        cmd.addAll(List.of(args));
        return exec(cmd, timeout, env);
    }

    /** The library the switch asks for ({@link #MPI_PROPERTY}, else {@link #MPI_ENV}), or "" for fthp-run's default. */
    public static String testMpi() {
        String property = System.getProperty(MPI_PROPERTY, "").strip();
        return property.isEmpty() ? System.getenv().getOrDefault(MPI_ENV, "").strip() : property;
    }

    static Result exec(List<String> cmd, Duration timeout) {
        return exec(cmd, timeout, java.util.Map.of());
    }

    /** Runs a command with extra environment variables, under the same deadline and cleanup. */
    static Result exec(List<String> cmd, Duration timeout, java.util.Map<String, String> env) {
        try {
            BackgroundJob job = BackgroundJob.start(cmd, env);
            try {
                return job.await(timeout);
            } finally {
                job.discard();
            }
        } catch (IOException e) {
            throw new AssertionError("cannot start " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Kills a process and all of its descendants, children first seen, by pid. */
    static void killTree(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        root.destroyForcibly();
        for (ProcessHandle h : all) {
            h.destroyForcibly();
        }
    }
}

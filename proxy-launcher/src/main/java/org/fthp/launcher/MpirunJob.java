package org.fthp.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the native launcher with our stdin and stdout, its stderr through {@link MpirunStderrFilter}, and returns
 * its exit code.
 *
 * <p>If fthp-run itself is told to stop (SIGINT, SIGTERM), a shutdown hook stops mpirun and then
 * whatever it had started. Processes are always addressed by pid, taken from our own process
 * tree: killing by name could hit another user's job on the same machine.
 */
public final class MpirunJob {

    /** How long mpirun gets to tear its ranks down itself before we step in. */
    private static final long GRACE_MILLIS = 3000;
    /**
     * How long the end of mpirun's stderr is waited for once it and its survivors are gone: the filter may be waiting
     * for the coordinators' explanation of the end (MpirunStderrFilter.EXPLANATION_WAIT_MILLIS).
     */
    private static final long STDERR_DRAIN_MILLIS = MpirunStderrFilter.EXPLANATION_WAIT_MILLIS + 1000;

    private MpirunJob() {}

    public static int run(List<String> command, Map<String, String> extraEnv) throws LaunchException {
        return run(command, extraEnv, mpirun -> { });
    }

    /** As {@link #run(List, Map)}; {@code started} gets the mpirun process (e.g. to stop it on a job abort). */
    public static int run(List<String> command, Map<String, String> extraEnv,
                          java.util.function.Consumer<Process> started) throws LaunchException {
        return run(command, extraEnv, null, started);
    }

    /**
     * As above; {@code explained} says whether fthp-run has told why the job ended (the coordinators' verdict), so
     * that mpirun's own notice of that end is not repeated; null without coordinators.
     */
    public static int run(List<String> command, Map<String, String> extraEnv,
                          java.util.function.BooleanSupplier explained,
                          java.util.function.Consumer<Process> started) throws LaunchException {
        ProcessBuilder builder = new ProcessBuilder().inheritIO().redirectError(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(extraEnv);
        builder.command(withParentDeathSignal(command, builder.environment()));
        Process mpirun;
        try {
            mpirun = builder.start();
        } catch (IOException e) {
            throw LaunchException.environment("cannot start " + command.get(0) + ": " + e.getMessage());
        }
        Thread stderr = MpirunStderrFilter.start(mpirun.getErrorStream(), System.err, explained);
        Thread teardown = new Thread(() -> stop(mpirun), "fthp-run-teardown");
        Runtime.getRuntime().addShutdownHook(teardown);
        JobProcesses processes = JobProcesses.watch(mpirun);
        started.accept(mpirun);
        try {
            int code = mpirun.waitFor();
            // hydra's mpiexec can end (an MPI_Abort) while its proxy and ranks still run: seen with MPICH 4.0, a
            // rank left waiting in MPI_Abort for the proxy's answer; once the launcher has ended, all of it goes
            int outlived = processes.endSurvivors();
            // what mpirun and its processes wrote comes before what fthp-run says about the end
            stderr.join(STDERR_DRAIN_MILLIS);
            if (outlived > 0) {
                System.err.println("fthp-run: ended " + outlived + " process(es) of the job that outlived "
                        + Path.of(command.get(0)).getFileName());
            }
            return code;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(mpirun);
            return 130;
        }
    }

    /** util-linux's setpriv: sets the parent-death signal, then execs the command (same pid). */
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    /** coreutils' env: sets a variable for the command it execs (same pid). */
    private static final Path ENV = Path.of("/usr/bin/env");

    /**
     * mpirun gets SIGTERM when fthp-run dies, even by SIGKILL (a batch system's, an OOM killer's): it then ends its
     * ranks, rather than leaving a job that nobody relays, whose coordinators are gone, and that would still write
     * to the output files a resumed job takes over. The signal is the kernel's (PR_SET_PDEATHSIG, kept across
     * exec); without setpriv mpirun is started as it is.
     *
     * <p>The proxy library in {@code LD_PRELOAD} removes itself from the environment of the first program it is
     * loaded into, so that the ranks do not inherit it: setpriv must not be that program. {@code env}, exec'd by
     * setpriv, puts it back for mpirun alone; {@code environment} (the process's, before start) loses it.
     */
    static List<String> withParentDeathSignal(List<String> command, Map<String, String> environment) {
        if (!java.nio.file.Files.isExecutable(SETPRIV)) {
            return command;
        }
        List<String> wrapped = new java.util.ArrayList<>(List.of(SETPRIV.toString(), "--pdeathsig", "TERM"));
        String preload = environment.get("LD_PRELOAD");
        if (preload != null) {
            if (!java.nio.file.Files.isExecutable(ENV)) {
                return command;
            }
            environment.remove("LD_PRELOAD");
            wrapped.add(ENV.toString());
            wrapped.add("LD_PRELOAD=" + preload);
        }
        wrapped.addAll(command);
        return wrapped;
    }

    /** Stops mpirun, then any of its descendants that outlive it. */
    static void stop(Process mpirun) {
        if (!mpirun.isAlive()) {
            return;
        }
        // Snapshot first: once mpirun is gone its children are re-parented and no longer ours to find.
        List<ProcessHandle> descendants = mpirun.descendants().toList();
        mpirun.destroy();
        awaitExit(mpirun.toHandle());
        for (ProcessHandle child : descendants) {
            child.destroy();
        }
        for (ProcessHandle child : descendants) {
            awaitExit(child);
            child.destroyForcibly();
        }
        mpirun.destroyForcibly();
    }

    private static void awaitExit(ProcessHandle process) {
        try {
            process.onExit().get(GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // Timed out or interrupted: the caller escalates.
        }
    }
}

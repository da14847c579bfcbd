package org.fthp.launcher;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import sun.misc.Signal;

/**
 * SIGUSR1 or SIGTERM to fthp-run in a job with a checkpoint directory: a batch system's warning that the job's time
 * is up (Slurm's {@code --signal=B:USR1@60}, forwarded by the batch script; or {@code scancel --signal}). The
 * primary is asked for a checkpoint at the ranks' next snapshot; once an epoch committed after the signal is on
 * disk the job is ended and fthp-run exits with {@link #EXIT_STOPPED}: the same command later resumes from it. A
 * second signal ends the job at once (the checkpoint on disk, if any, is the one a later job resumes from).
 *
 * <p>Without a checkpoint directory nothing is installed: the signals end fthp-run as they always did.
 */
final class StopOnSignal {

    /** sysexits' EX_TEMPFAIL: stopped on request after a checkpoint, to be run again. */
    static final int EXIT_STOPPED = 75;
    private static final long POLL_MILLIS = 50;

    /** The current incarnation's coordinators (a relaunch on several hosts starts a new set). */
    private volatile Coordinators coordinators;
    private final PrintStream err;
    private final AtomicInteger signals = new AtomicInteger();
    private final AtomicReference<Process> job = new AtomicReference<>();
    private volatile boolean stopped;

    private StopOnSignal(Coordinators coordinators, PrintStream err) {
        this.coordinators = coordinators;
        this.err = err;
    }

    static StopOnSignal install(Coordinators coordinators, PrintStream err) {
        StopOnSignal s = new StopOnSignal(coordinators, err);
        for (String name : new String[] {"USR1", "TERM"}) {
            Signal.handle(new Signal(name), sig -> s.signalled("SIG" + sig.getName()));
        }
        return s;
    }

    /** The native job now running (each incarnation's mpirun). */
    void running(Process mpirun) {
        running(mpirun, coordinators);
    }

    /** As above, with its own coordinator set. */
    void running(Process mpirun, Coordinators current) {
        coordinators = current;
        job.set(mpirun);
        if (stopped) {
            MpirunJob.stop(mpirun);
        }
    }

    /** Whether the job was ended on a signal (the exit code is then {@link #EXIT_STOPPED}). */
    boolean stopped() {
        return stopped;
    }

    private void signalled(String name) {
        if (signals.incrementAndGet() > 1) {
            err.println("fthp-run: " + name + " again: ending the job now");
            end();
            return;
        }
        Coordinators current = coordinators;
        if (current == null) {
            err.println("fthp-run: " + name + " before the job started; ending it");
            end();
            return;
        }
        CheckpointReport report = current.checkpoints();
        long after = Math.max(report.lastCommitted(), report.lastOnDisk());
        if (!current.requestCheckpoint()) {
            err.println("fthp-run: " + name + ": the coordinators cannot be reached; ending the job now");
            end();
            return;
        }
        err.println("fthp-run: " + name + ": checkpointing at the next snapshot, then ending the job");
        Thread wait = new Thread(() -> {
            while (report.lastOnDisk() <= after) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
            err.println("fthp-run: checkpoint epoch " + report.lastOnDisk() + " is on disk; ending the job (the same"
                    + " command resumes from it)");
            end();
        }, "fthp-run-stop");
        wait.setDaemon(true);
        wait.start();
    }

    private void end() {
        stopped = true;
        Process mpirun = job.get();
        if (mpirun != null) {
            MpirunJob.stop(mpirun);
        }
    }
}

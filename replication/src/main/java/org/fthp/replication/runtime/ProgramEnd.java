package org.fthp.replication.runtime;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.fthp.coordinator.event.Role;
import org.fthp.replication.failure.CoordinatorLink;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.routing.Membership;

/**
 * How a program that does not reach {@code MPI_Finalize} ends the job: promptly, with an exit code that says
 * why, and never as a failure to repair (docs/DESIGN.md §9, "A program's own end").
 *
 * <p>Installed at {@code MPI_Init}: an uncaught-exception handler on the thread that initialised MPI, and a
 * shutdown hook. Each way out is turned into one exit code:
 * <ul>
 * <li>an exception or error escaping that thread's run (main): printed as the JVM prints it, on the program's
 *     own stderr (so once per rank: a replica's stderr stays in its ring while its twin lives), exit {@link
 *     #UNCAUGHT};
 * <li>{@code System.exit(n)} before Finalize: n, or {@link #NO_FINALIZE} for n = 0;
 * <li>returning from main without Finalize: {@link #NO_FINALIZE};
 * <li>{@code MPI_Abort(c)} and {@code ERRORS_ARE_FATAL}: the facade calls {@link #aborting} before the native abort.
 * </ul>
 * With coordinators the process tells its node's coordinator first and waits (bounded) until the job's end comes
 * back, so the primary's verdict is the program's, not a lost rank: every death after it is the teardown. A
 * replica whose twin lives reports only if its twin has not ended the job within {@link #TWIN_GRACE_MILLIS}:
 * both run the same code, so the twin normally gets there too, and its output is the one printed. Then the
 * process halts with the code; a non-zero exit makes mpirun end the rest of the job at once.
 *
 * <p>A signal (mpirun or fthp-run ending the job) also runs shutdown hooks; that is told apart from the program's
 * own exit by {@link RuntimeExitLog} and changes nothing.
 */
public final class ProgramEnd {

    /** An uncaught exception or error ended a rank: the JVM's own code for it. */
    public static final int UNCAUGHT = 1;
    /** A rank ended without MPI_Finalize (returned from main, or System.exit(0) before it). */
    public static final int NO_FINALIZE = 5;
    /** How long a replica leaves its twin to end the job first. */
    static final long TWIN_GRACE_MILLIS = 3_000;
    /** How long a process that reported waits for the job's end before it goes anyway. */
    static final long REPORTED_WAIT_MILLIS = 5_000;

    private final Membership membership;
    /** The program's thread, whose end without Finalize ends the job. */
    private final Thread mainThread;
    /** Whether MPI runs (between init and finalize). */
    private final BooleanSupplier running;
    private final CoordinatorLink link;
    private final RuntimeExitLog exits;
    private final AtomicBoolean ending = new AtomicBoolean();

    private ProgramEnd(Membership membership, Thread mainThread, BooleanSupplier running, CoordinatorLink link,
                       RuntimeExitLog exits) {
        this.membership = membership;
        this.mainThread = mainThread;
        this.running = running;
        this.link = link;
        this.exits = exits;
    }

    /** At MPI_Init, on the thread that initialises MPI; {@code link} is null without coordinators. */
    static ProgramEnd install(Membership membership, Thread mainThread, BooleanSupplier running,
                              CoordinatorLink link) {
        ProgramEnd end = new ProgramEnd(membership, mainThread, running, link, RuntimeExitLog.attach());
        mainThread.setUncaughtExceptionHandler(end::uncaught);
        Runtime.getRuntime().addShutdownHook(new Thread(end::atShutdown, "fthp-program-end"));
        return end;
    }

    /**
     * {@code MPI_Abort(code)} or an {@code ERRORS_ARE_FATAL} error, before the native abort: the coordinators end
     * the job with {@code code} (non-zero) rather than take the deaths that follow for failures.
     */
    public void aborting(int code, String reason) {
        if (ending.compareAndSet(false, true)) {
            report(code, reason);
        }
    }

    private void uncaught(Thread thread, Throwable error) {
        if (error instanceof RollbackSignal && running.getAsBoolean()) {
            // the program let the rollback out of main instead of through Checkpoint.resilient: this process cannot
            // take part, and fails like a dead one (the coordinators relaunch the job); not the program's own end
            org.fthp.replication.failure.Fatal.dieAsFailed("rank " + membership.logicalRank() + " cannot roll back in"
                    + " place: the rollback reached the end of " + thread.getName() + " without passing"
                    + " Checkpoint.resilient");
        }
        // printed exactly as the JVM would (a program's default handler included), on the program's stderr
        thread.getThreadGroup().uncaughtException(thread, error);
        if (!running.getAsBoolean() || !ending.compareAndSet(false, true)) {
            return;   // after Finalize the JVM ends as it always does
        }
        try {
            report(UNCAUGHT, "rank " + membership.logicalRank() + " ended with an uncaught " + error);
        } finally {
            Runtime.getRuntime().halt(UNCAUGHT);
        }
    }

    private void atShutdown() {
        if (!running.getAsBoolean() || ending.get()) {
            return;
        }
        int code;
        String reason;
        RuntimeExitLog.Exit exit = exits.programExit();
        if (exit != null) {
            code = exit.status() != 0 ? exit.status() : NO_FINALIZE;
            reason = "rank " + membership.logicalRank() + " called System.exit(" + exit.status()
                    + ") before MPI_Finalize";
        } else if (mainThread.getState() == Thread.State.TERMINATED) {
            code = NO_FINALIZE;
            reason = "rank " + membership.logicalRank() + " returned from main without calling MPI_Finalize";
        } else {
            return;   // a signal: the launcher is ending this process
        }
        if (!ending.compareAndSet(false, true)) {
            return;
        }
        try {
            if (link == null) {
                RuntimeMessages.say("fthp: " + reason + "; the job ends (exit code " + code + ")");
            }
            report(code, reason);
        } finally {
            Runtime.getRuntime().halt(code);
        }
    }

    /** Tells the coordinators (a replica only if its twin did not) and waits until they end the job. */
    private void report(int code, String reason) {
        System.out.flush();
        System.err.flush();
        if (link == null) {
            return;
        }
        if (membership.role() == Role.REP) {
            if (link.awaitJobEnd(TWIN_GRACE_MILLIS)) {
                return;
            }
            // the twin did not end the job (it died, or is elsewhere): this copy's report is the rank's
            RuntimeMessages.say("fthp: " + reason);
        }
        link.reportProgramEnd(code, reason);
        link.awaitJobEnd(REPORTED_WAIT_MILLIS);
    }
}

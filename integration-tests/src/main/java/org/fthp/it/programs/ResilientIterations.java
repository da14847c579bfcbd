package org.fthp.it.programs;

import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;
import org.fthp.checkpoint.api.ResilientBody;

/**
 * {@link RestartIterations} with its whole body after {@code MPI.Init} inside {@code Checkpoint.resilient}: a job
 * with a spare survives a lost rank by rolling back in place, and prints exactly what a run without failures
 * prints. Same arguments as RestartIterations, and optionally {@code --stale} after them: the first run of the body
 * keeps a duplicate of COMM_WORLD and its group in static fields, and a rerun after a rollback checks that using
 * them is a clear ERR_COMM and ERR_GROUP error, and that an array it registered with {@code registerArray} comes
 * back the same, zeroed, and is filled by the recovery, and says so on stderr; or {@code --swallow}: rank 0 catches the
 * rollback in its main loop and stays there (a program that swallows it), so the job must fall back to a relaunch.
 */
public final class ResilientIterations {

    /** With --stale: a communicator made by the body's first run, kept across a rollback (which makes it stale). */
    private static Intracomm kept;
    /** With --stale: a group made by the body's first run, kept across a rollback. */
    private static Group keptGroup;

    /** With --stale: the array registered with registerArray by the body's first run, kept across a rollback. */
    private static int[] keptMarks;
    /** What the first run writes into it (checkpointed with it, so what recover loads). */
    private static final int MARK = 7;

    private ResilientIterations() {}

    /**
     * With --stale, an array from {@code Checkpoint.registerArray}: the first run fills it with MARK; a rerun after a
     * rollback must get back the very same array, zeroed (nothing of the unwound run left in it) until it recovers.
     */
    private static int[] handedBackMarks(ResilientBody.Start start, int rank) {
        int[] marks = Checkpoint.registerArray("marks", int[].class, 16);
        if (start == ResilientBody.Start.FIRST) {
            java.util.Arrays.fill(marks, MARK);
            keptMarks = marks;
        } else if (start == ResilientBody.Start.ROLLBACK) {
            if (marks != keptMarks) {
                throw new IllegalStateException("rank " + rank + ": a rollback did not hand back the registered array");
            }
            for (int m : marks) {
                if (m != 0) {
                    throw new IllegalStateException("rank " + rank + ": the handed-back array holds " + m);
                }
            }
        }
        return marks;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Checkpoint.resilient(start -> body(args, start));
        MPI.Finalize();
    }

    private static void body(String[] args, ResilientBody.Start start) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        boolean stale = args.length > 4 && args[4].equals("--stale");
        boolean swallow = args.length > 4 && args[4].equals("--swallow");
        if (stale && start == ResilientBody.Start.FIRST) {
            kept = world.dup();
            // an error on it is an exception here, not the end of the job
            kept.setErrhandler(MPI.ERRORS_RETURN);
            keptGroup = kept.getGroup();
        }
        int rank = world.getRank();
        int[] marks = stale ? handedBackMarks(start, rank) : null;
        RestartIterations.Run run = RestartIterations.Run.start(world, "ResilientIterations", args, true);
        if (marks != null && start == ResilientBody.Start.ROLLBACK) {
            for (int m : marks) {
                if (m != MARK) {
                    throw new IllegalStateException("recover did not load the handed-back array: " + m);
                }
            }
            System.err.println("ResilientIterations rank " + rank + ": registered arrays handed back zeroed, "
                    + "recovered in place");
        }
        if (stale && start == ResilientBody.Start.ROLLBACK) {
            try {
                kept.barrier();
                throw new IllegalStateException("a communicator made before the rollback was used after it");
            } catch (MPIException e) {
                if (e.getErrorClass() != MPI.ERR_COMM) {
                    throw e;
                }
                System.err.println("ResilientIterations rank " + world.getRank() + ": " + e.getMessage());
            }
            try {
                keptGroup.getSize();
                throw new IllegalStateException("a group made before the rollback was used after it");
            } catch (MPIException e) {
                if (e.getErrorClass() != MPI.ERR_GROUP) {
                    throw e;
                }
                System.err.println("ResilientIterations rank " + world.getRank() + ": " + e.getMessage());
            }
        }
        try {
            run.iterate(world);
        } catch (Error e) {
            if (!swallow || rank != 0) {
                throw e;
            }
            System.err.println("ResilientIterations rank 0 swallows: " + e.getMessage());
            try {
                Thread.sleep(60_000);   // ended long before by the relaunch
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
        long state = RestartIterations.finalState(run.loop(), run.field());
        RepairWorkload.reportStates(world, "ResilientIterations", state);
    }
}

package org.fthp.checkpoint.api;

import mpi.MPIException;

/**
 * Everything a program does after {@code MPI.Init} and before {@code MPI.Finalize}, which the runtime may run again
 * after a rollback in place (see {@link Checkpoint#resilient}): its setup, its communicators, its registered state
 * and its main loop.
 */
@FunctionalInterface
public interface ResilientBody {

    /**
     * Runs the program's body. {@code start} says why: {@link Start#FIRST} the first time; {@link Start#ROLLBACK} on a
     * survivor after a rank was lost; {@link Start#REPLACEMENT} on the spare that took the lost rank. In the two
     * latter {@link Checkpoint#isRestart()} is true and {@link Checkpoint#recover()} loads the last committed epoch.
     */
    void run(Start start) throws MPIException;

    /** Why the body runs. */
    enum Start {
        /** The job's first run of the body on this process (also after a relaunch: see {@link Checkpoint#isRestart}). */
        FIRST,
        /** A survivor runs the body again: the job rolled back in place to the last committed checkpoint. */
        ROLLBACK,
        /** A spare runs the body in the place of a lost rank, from the last committed checkpoint. */
        REPLACEMENT
    }
}

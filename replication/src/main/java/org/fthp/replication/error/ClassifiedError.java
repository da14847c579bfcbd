package org.fthp.replication.error;

/**
 * An error that says which MPI error class and message the program sees for
 * it: the engine's own ({@link MpiError}), and the facade's carrier of a
 * program's {@code MPIException} thrown from its own code (a user reduction).
 * Lets the engine pass an error on to a process that must report the same one
 * (a replica whose twin decided the outcome) without knowing the facade's types.
 */
public interface ClassifiedError {

    int errorClass();

    /** The message the program's {@code MPIException} carries. */
    String errorMessage();
}

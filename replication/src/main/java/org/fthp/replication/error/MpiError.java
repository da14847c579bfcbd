package org.fthp.replication.error;

/**
 * An error the engine raises, with the MPI error class it belongs to; the
 * {@code mpi} facade turns it into an {@code MPIException} of that class and
 * applies the communicator's error handler. The engine says which class an
 * error is where it knows, instead of the facade guessing from a Java
 * exception type.
 */
public final class MpiError extends RuntimeException implements ClassifiedError {

    /**
     * The error classes the engine raises, with the native library's values
     * (read from its ABI description without loading it, so an error about
     * loading it has a class too); the fallbacks are Open MPI's.
     */
    private static final NativeConstants CONSTANTS = NativeConstants.load();
    public static final int ERR_ARG = CONSTANTS.get("MPI_ERR_ARG", 13);
    public static final int ERR_BUFFER = CONSTANTS.get("MPI_ERR_BUFFER", 1);
    public static final int ERR_COMM = CONSTANTS.get("MPI_ERR_COMM", 5);
    public static final int ERR_GROUP = CONSTANTS.get("MPI_ERR_GROUP", 9);
    public static final int ERR_INTERN = CONSTANTS.get("MPI_ERR_INTERN", 17);
    public static final int ERR_OTHER = CONSTANTS.get("MPI_ERR_OTHER", 16);
    public static final int ERR_TRUNCATE = CONSTANTS.get("MPI_ERR_TRUNCATE", 15);

    private final int errorClass;

    public MpiError(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public MpiError(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    @Override
    public int errorClass() {
        return errorClass;
    }

    @Override
    public String errorMessage() {
        return getMessage();
    }
}

package mpi;

/**
 * An MPI error: a native failure (with the native library's error code, class
 * and text) or an argument the facade refused before any native call.
 */
public final class MPIException extends Exception {

    private int errorCode;
    private int errorClass;

    protected MPIException(int code, int clazz, String message) {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    public MPIException(String message) {
        super(message);
    }

    public MPIException(Throwable cause) {
        super(cause);
        setStackTrace(cause.getStackTrace());
    }

    public int getErrorCode() {
        return errorCode;
    }

    public int getErrorClass() {
        return errorClass;
    }
}

package org.fthp.empi;

/**
 * A failed native MPI call, or a native library that cannot be used. Carries
 * the native error code, its class and the library's own error string.
 */
public class EmpiException extends RuntimeException {

    private final int errorCode;
    private final int errorClass;

    public EmpiException(String message) {
        this(message, -1, -1, null);
    }

    public EmpiException(String message, Throwable cause) {
        this(message, -1, -1, cause);
    }

    public EmpiException(String message, int errorCode, int errorClass) {
        this(message, errorCode, errorClass, null);
    }

    private EmpiException(String message, int errorCode, int errorClass, Throwable cause) {
        super(message, cause);
        this.errorCode = errorCode;
        this.errorClass = errorClass;
    }

    /** The native error code, or -1 if the failure was not a native return code. */
    public int errorCode() { return errorCode; }

    /** The native error class ({@code MPI_ERR_*}), or -1 if unknown. */
    public int errorClass() { return errorClass; }
}

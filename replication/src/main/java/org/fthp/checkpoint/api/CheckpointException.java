package org.fthp.checkpoint.api;

/**
 * A checkpoint call the program got wrong (an unsupported type to register,
 * recovered state that does not fit what was registered, a snapshot with a
 * nonblocking request pending) or that could not be served. Every rank of a
 * collective call gets it alike, so none is left waiting for the others.
 */
public class CheckpointException extends RuntimeException {

    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}

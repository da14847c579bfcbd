package org.fthp.replication.ops;

/**
 * The eager rule, the one place it is decided: a payload below the limit travels with its header as one eager
 * native message, which the native library completes without waiting for the receiver; a larger one goes in two
 * (header, then payload: {@link Rendezvous}) and waits until the receiver takes it.
 */
public final class EagerLimit {

    private EagerLimit() {
    }

    /** Whether a payload of {@code payloadBytes} goes eagerly. */
    public static boolean fits(long payloadBytes) {
        return payloadBytes < Rendezvous.THRESHOLD_BYTES;
    }
}

package org.fthp.coordinator.wire;

/** A frame that does not decode to exactly one valid message: the sender is broken or hostile, drop it. */
public final class MalformedFrameException extends Exception {
    public MalformedFrameException(String message) {
        super(message);
    }
}

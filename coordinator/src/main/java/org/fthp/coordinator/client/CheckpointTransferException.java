package org.fthp.coordinator.client;

import java.io.IOException;

/** A piece could not be put or got: refused (memory bound, checksum), missing everywhere, timed out, or disconnected. */
public final class CheckpointTransferException extends IOException {
    public CheckpointTransferException(String message) {
        super(message);
    }

    public CheckpointTransferException(String message, Throwable cause) {
        super(message, cause);
    }
}

package org.fthp.checkpoint.store;

import java.io.IOException;

/** A manifest file that is incomplete or altered: its epoch does not count as committed. */
public final class CorruptManifestException extends IOException {
    public CorruptManifestException(String message) {
        super(message);
    }
}

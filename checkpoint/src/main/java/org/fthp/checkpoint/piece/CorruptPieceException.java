package org.fthp.checkpoint.piece;

import java.io.IOException;

/** A piece that is not what a writer produced: wrong magic or version, bad lengths, or a checksum mismatch. */
public final class CorruptPieceException extends IOException {
    public CorruptPieceException(String message) {
        super(message);
    }
}

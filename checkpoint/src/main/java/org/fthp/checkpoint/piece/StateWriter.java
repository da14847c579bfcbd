package org.fthp.checkpoint.piece;

import java.io.DataOutput;
import java.io.IOException;

/** How a user object puts its state into an {@link SectionKind#OBJECT} section. */
@FunctionalInterface
public interface StateWriter {
    void write(DataOutput out) throws IOException;
}

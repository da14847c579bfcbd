package org.fthp.checkpoint.piece;

import java.io.DataInput;
import java.io.IOException;

/** How a user object takes its state back from an {@link SectionKind#OBJECT} section. */
@FunctionalInterface
public interface StateReader {
    void read(DataInput in) throws IOException;
}

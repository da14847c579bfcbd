package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The byte after a reduction's vector that says its sender failed: a rank that finds it set fails the same way
 * ({@link DoublingOutcome}); a twin's {@link FailureNote} carries it too.
 */
final class FailureMark {

    static final byte MARKED = 1;

    private FailureMark() {
    }

    /** Whether the vector of {@code bytes} in {@code from} is followed by the mark. */
    static boolean marked(MemorySegment from, long offset) {
        return from.get(ValueLayout.JAVA_BYTE, offset) == MARKED;
    }
}

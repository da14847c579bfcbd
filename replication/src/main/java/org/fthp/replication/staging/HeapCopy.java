package org.fthp.replication.staging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies of native bytes on the heap, for what the logs keep. Not
 * {@code MemorySegment.toArray}: in JDK 25 it looks up class names on every
 * call, a cost that showed in profiles of small replicated collectives.
 */
public final class HeapCopy {

    private HeapCopy() {}

    /** The first {@code bytes} bytes of {@code from}. */
    public static byte[] of(MemorySegment from, long bytes) {
        byte[] copy = new byte[Math.toIntExact(bytes)];
        MemorySegment.copy(from, ValueLayout.JAVA_BYTE, 0, copy, 0, copy.length);
        return copy;
    }
}

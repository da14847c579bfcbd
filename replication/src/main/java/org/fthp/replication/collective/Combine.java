package org.fthp.replication.collective;

import java.lang.foreign.MemorySegment;

/**
 * A reduction's operation on packed items: {@code inout[i] = in[i] op inout[i]}
 * for {@code count} items. Whatever it throws ends the collective's
 * completion and reaches the caller.
 */
@FunctionalInterface
public interface Combine {
    void apply(MemorySegment in, MemorySegment inout, int count);
}

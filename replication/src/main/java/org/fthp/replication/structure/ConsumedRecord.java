package org.fthp.replication.structure;

import java.util.Arrays;

/**
 * Which messages of one stream (communicator, source, destination) a copy of
 * the destination has consumed, as it reported at a repair: every id up to
 * {@code through}, and the sorted ids in {@code above}.
 */
public record ConsumedRecord(long through, long[] above) {

    public boolean has(long sendId) {
        return sendId <= through || Arrays.binarySearch(above, sendId) >= 0;
    }

    /** The highest id consumed. */
    public long highest() {
        return above.length == 0 ? through : Math.max(through, above[above.length - 1]);
    }
}

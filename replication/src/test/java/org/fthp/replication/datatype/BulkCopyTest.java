package org.fthp.replication.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Large copies through memmove land exactly where MemorySegment.copy would put them, and fail as it would. */
class BulkCopyTest {

    /** Above the threshold and more than one piece, at odd offsets: heap to native and back, native to native. */
    private static final int BYTES = (int) (BulkCopy.PIECE_BYTES + BulkCopy.THRESHOLD_BYTES + 13);

    @Test
    void copiesHeapToNativeToHeapAtOffsets() {
        byte[] source = new byte[BYTES + 7];
        new Random(23).nextBytes(source);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment staging = arena.allocate(BYTES + 64);
            BulkCopy.copy(MemorySegment.ofArray(source), 7, staging, 64 - 3 - 1, BYTES);
            MemorySegment other = arena.allocate(BYTES + 5);
            BulkCopy.copy(staging, 64 - 3 - 1, other, 5, BYTES);
            byte[] back = new byte[BYTES + 11];
            BulkCopy.copy(other, 5, MemorySegment.ofArray(back), 11, BYTES);
            byte[] expected = new byte[BYTES + 11];
            System.arraycopy(source, 7, expected, 11, BYTES);
            assertArrayEquals(expected, back);
        }
    }

    @Test
    void copiesIntoALongArrayAtAByteOffset() {
        long[] target = new long[BYTES / 8 + 2];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment staging = arena.allocate(BYTES);
            for (long k = 0; k < BYTES / 8; k++) {
                staging.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, k, k * 31 + 1);
            }
            BulkCopy.copy(staging, 0, MemorySegment.ofArray(target), 8, BYTES / 8 * 8L);
        }
        assertEquals(0, target[0]);
        for (int k = 0; k < BYTES / 8; k++) {
            assertEquals(k * 31L + 1, target[k + 1], "long " + k);
        }
        assertEquals(0, target[target.length - 1]);
    }

    @Test
    void failsAsMemorySegmentCopyDoes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment staging = arena.allocate(BYTES);
            MemorySegment array = MemorySegment.ofArray(new byte[BYTES]);
            assertThrows(IndexOutOfBoundsException.class, () -> BulkCopy.copy(staging, 1, array, 0, BYTES));
            assertThrows(IndexOutOfBoundsException.class, () -> BulkCopy.copy(staging, 0, array, 1, BYTES));
            MemorySegment readOnly = array.asReadOnly();
            Class<? extends Throwable> jdk = assertThrows(RuntimeException.class,
                    () -> MemorySegment.copy(staging, 0, readOnly, 0, BYTES)).getClass();
            assertEquals(jdk, assertThrows(RuntimeException.class,
                    () -> BulkCopy.copy(staging, 0, readOnly, 0, BYTES)).getClass());
        }
    }
}

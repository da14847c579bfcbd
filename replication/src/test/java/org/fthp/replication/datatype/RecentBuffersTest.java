package org.fthp.replication.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class RecentBuffersTest {

    private final RecentBuffers recent = new RecentBuffers();

    @Test
    void theSameSmallArrayIsWrappedOnce() {
        double[] a = new double[16];
        int[] b = new int[16];
        UserBuffer wrapA = recent.of(a);
        UserBuffer wrapB = recent.of(b);
        assertSame(wrapA, recent.of(a));
        assertSame(wrapB, recent.of(b));
        assertNotSame(wrapA, wrapB);
        assertEquals(16 * 8, wrapA.bytes());
        assertEquals(16 * 4, wrapB.bytes());
    }

    @Test
    void anEqualArrayIsNotTheSameArray() {
        byte[] a = new byte[8];
        byte[] twin = new byte[8];
        assertNotSame(recent.of(a), recent.of(twin));
    }

    @Test
    void keepsOnlyTheLatestSlotsArrays() {
        byte[][] arrays = new byte[RecentBuffers.SLOTS + 1][4];
        UserBuffer first = recent.of(arrays[0]);
        for (int k = 1; k < arrays.length; k++) {
            recent.of(arrays[k]);
        }
        // the oldest made room for the last: wrapped anew
        assertNotSame(first, recent.of(arrays[0]));
        // the one after it is still there
        assertSame(recent.of(arrays[2]), recent.of(arrays[2]));
    }

    @Test
    void theSameSmallDirectBufferIsWrappedOnce() {
        ByteBuffer direct = ByteBuffer.allocateDirect(16);
        UserBuffer wrap = recent.of(direct);
        assertSame(wrap, recent.of(direct));
        assertEquals(16, wrap.bytes());
        assertNotSame(wrap, recent.of(ByteBuffer.allocateDirect(16)));
    }

    @Test
    void largeArraysBooleansAndHeapBuffersAreNotKept() {
        byte[] large = new byte[(int) RecentBuffers.MAX_BYTES + 1];
        assertNotSame(recent.of(large), recent.of(large));
        boolean[] flags = new boolean[4];
        assertNotSame(recent.of(flags), recent.of(flags));
        ByteBuffer largeDirect = ByteBuffer.allocateDirect((int) RecentBuffers.MAX_BYTES + 1);
        assertNotSame(recent.of(largeDirect), recent.of(largeDirect));
        ByteBuffer heap = ByteBuffer.allocate(16);
        assertNotSame(recent.of(heap), recent.of(heap));
        assertNull(recent.of("not a buffer"));
        assertNull(recent.of(null));
    }
}

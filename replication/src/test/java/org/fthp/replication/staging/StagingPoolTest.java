package org.fthp.replication.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class StagingPoolTest {

    @Test
    void segmentsComeInPowerOfTwoClassesAndAreReused() {
        StagingPool pool = new StagingPool(8, 24);
        MemorySegment a = pool.acquire(100);
        assertEquals(128, a.byteSize());
        pool.release(a);
        assertSame(a, pool.acquire(65));
        assertEquals(64, pool.acquire(1).byteSize());
        assertThrows(IllegalArgumentException.class, () -> pool.acquire(-1));
    }

    @Test
    void blocksKeepTheirControlSlicesAndStagingAfterTheControlPart() {
        StagingPool pool = new StagingPool(8, 24);
        OpBlock b = pool.acquireBlock(1000);
        assertTrue(b.staging().byteSize() >= 1000);
        assertEquals(8, b.request().byteSize());
        assertEquals(24, b.status().byteSize());
        assertEquals(0, b.staging().address() % 64, "staging starts on a cache line");
        pool.release(b);
        assertSame(b, pool.acquireBlock(1000));
    }

    @Test
    void theOwnerGetsItsMostRecentReleaseFirst() {
        StagingPool pool = new StagingPool(8, 24);
        OpBlock a = pool.acquireBlock(100);
        OpBlock b = pool.acquireBlock(100);
        OpBlock c = pool.acquireBlock(100);
        pool.release(a);
        pool.release(b);
        pool.release(c);
        assertSame(c, pool.acquireBlock(100));
        assertSame(b, pool.acquireBlock(100));
        assertSame(a, pool.acquireBlock(100));
        assertNotSame(a, pool.acquireBlock(100), "a fresh block once the idle ones are taken");
    }

    @Test
    void otherThreadsShareAStackThatTheOwnerCanTakeFrom() throws Exception {
        StagingPool pool = new StagingPool(8, 24);
        AtomicReference<MemorySegment> fromOther = new AtomicReference<>();
        Thread t = new Thread(() -> {
            MemorySegment s = pool.acquire(256);
            fromOther.set(s);
            pool.release(s);
        });
        t.start();
        t.join();
        MemorySegment mine = pool.acquire(256);
        assertSame(fromOther.get(), mine, "the owner falls back to the shared stack");
        assertNotSame(mine, pool.acquire(256));
    }
}

package org.fthp.replication.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MessageMemoryTest {

    @Test
    void classesAreAQuarterOfAPowerOfTwoApart() {
        assertEquals(4096, MessageMemory.classBytes(1));
        assertEquals(4096, MessageMemory.classBytes(4096));
        assertEquals(5120, MessageMemory.classBytes(4097));
        assertEquals(1L << 20, MessageMemory.classBytes(1L << 20));
        assertEquals(5L << 18, MessageMemory.classBytes((1L << 20) + 24), "1 MiB and a header: 1.25 MiB");
        assertEquals(5L << 20, MessageMemory.classBytes((4L << 20) + 24));
        assertEquals(7L << 20, MessageMemory.classBytes(7L << 20));
    }

    @Test
    void idleBlocksAreReusedAndThoseBeyondTheBudgetFreed() {
        MessageMemory memory = new MessageMemory();
        MessageMemory.Block a = memory.acquire(100_000);
        memory.release(a);
        assertEquals(a.segment().byteSize(), memory.idleBytes());
        assertSame(a, memory.acquire(99_000), "same class: reused");
        assertEquals(0, memory.idleBytes());
        long big = MessageMemory.KEEP_BYTES;
        MessageMemory.Block whole = memory.acquire(big);
        memory.release(a);
        memory.release(whole);
        assertFalse(whole.arena().scope().isAlive(), "beyond the budget: freed at once");
        assertThrows(IllegalStateException.class, () -> whole.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
        assertEquals(a.segment().byteSize(), memory.idleBytes());
    }
}

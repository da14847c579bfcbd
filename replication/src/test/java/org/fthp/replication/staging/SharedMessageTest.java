package org.fthp.replication.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SharedMessageTest {

    @Test
    void theMemoryIsReusedOnlyAfterTheLastHolderReleases() {
        MessageMemory memory = new MessageMemory();
        SharedMessage m = SharedMessage.allocate(memory, 5000);
        assertEquals(5000, m.message().byteSize());
        long address = m.message().address();
        m.retain();
        m.retain();
        m.release();
        m.release();
        SharedMessage other = SharedMessage.allocate(memory, 5000);
        assertNotEquals(address, other.message().address(), "still held once: not free");
        m.release();
        assertEquals(address, SharedMessage.allocate(memory, 5000).message().address(), "the last release freed it");
    }

    @Test
    void noReferenceAfterTheLastReleaseAndNoReleaseTooMany() {
        MessageMemory memory = new MessageMemory();
        SharedMessage m = SharedMessage.allocate(memory, 100);
        m.release();
        assertThrows(IllegalStateException.class, m::retain);
        SharedMessage n = SharedMessage.allocate(memory, 100);
        n.release();
        assertThrows(IllegalStateException.class, n::release);
    }
}

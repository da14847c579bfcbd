package org.fthp.replication.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.msglog.PullDescriptor;
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

    /**
     * A logged message in pull memory: a receiver reads its payload (after the header) through its own mapping,
     * and the block goes back to pull memory, not elsewhere, only on the last release.
     */
    @Test
    void inPullMemoryAReceiverReadsThePayloadAndTheBlockReturnsOnTheLastRelease() {
        PullMemory pull = PullMemory.create();
        assertNotNull(pull, "Linux with memfd_create and /proc: the region must exist");
        int header = 16;
        int payload = 300_000;
        SharedMessage m = SharedMessage.allocate(pull, header + payload);
        assertNotNull(m);
        assertTrue(m.pullable());
        assertFalse(SharedMessage.allocate(new MessageMemory(), 100).pullable());
        for (int i = 0; i < payload; i += 8) {
            m.message().set(ValueLayout.JAVA_LONG_UNALIGNED, header + i, i * 17L + 3);
        }
        MemorySegment descriptor = Arena.ofAuto().allocate(PullDescriptor.BYTES);
        m.describe(descriptor, header, payload);
        MemorySegment read = new PeerMemory().payload(descriptor);
        assertNotNull(read);
        assertEquals(-1, read.mismatch(m.message().asSlice(header, payload)), "exactly the payload, past the header");
        assertThrows(IndexOutOfBoundsException.class,
                () -> m.describe(descriptor, header, PullMemory.classBytes(header + payload)), "past the block");

        long address = m.message().address();
        m.retain();
        m.release();
        SharedMessage other = SharedMessage.allocate(pull, header + payload);
        assertNotEquals(address, other.message().address(), "still held once: not free");
        m.release();
        assertEquals(address, SharedMessage.allocate(pull, header + payload).message().address(),
                "the last release gave the block back to pull memory");
        other.release();
    }
}

package org.fthp.replication.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.msglog.PullDescriptor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared memory large payloads wait in, read back through a real mapping of this process's own file
 * ({@code /proc/self}'s pid in the descriptor, as a receiver on the node would read it).
 */
class PullMemoryTest {

    private static PullMemory memory;

    @BeforeAll
    static void create() {
        memory = PullMemory.create();
        assertNotNull(memory, "Linux with memfd_create and /proc: the region must exist");
    }

    @Test
    void blocksArePagesInSizeClassesAndReusedAfterRelease() {
        PullMemory.Block a = memory.acquire(65536 + 1);
        assertEquals(0, a.offset() % PullMemory.PAGE);
        assertEquals(PullMemory.classBytes(65537), a.segment().byteSize());
        assertEquals(81920, PullMemory.classBytes(65537), "a quarter of 64 KiB above it");
        memory.release(a);
        PullMemory.Block b = memory.acquire(70000);
        assertEquals(a.offset(), b.offset(), "the idle block of the class comes back");
        PullMemory.Block c = memory.acquire(70000);
        assertTrue(c.offset() != b.offset());
        memory.release(b);
        memory.release(c);
    }

    @Test
    void aReceiverReadsExactlyThePayloadThroughItsOwnMapping() {
        PullMemory.Block block = memory.acquire(1 << 20);
        for (int i = 0; i < (1 << 20); i += 8) {
            block.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 31L + 7);
        }
        MemorySegment descriptor = Arena.ofAuto().allocate(PullDescriptor.BYTES);
        memory.describe(descriptor, block, 1 << 20);
        PeerMemory peers = new PeerMemory();
        MemorySegment payload = peers.payload(descriptor);
        assertNotNull(payload);
        assertEquals(1 << 20, payload.byteSize());
        assertTrue(payload.isReadOnly(), "a receiver cannot write into its sender's memory");
        assertEquals(-1, payload.mismatch(block.segment().asSlice(0, 1 << 20)));
        assertThrows(IllegalArgumentException.class, () -> payload.set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
        // the mapping is shared: what the owner writes next, the reader sees
        block.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, 8, 42L);
        assertEquals(42L, peers.payload(descriptor).get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
        memory.release(block);
    }

    @Test
    void aDescriptorThatDoesNotNameThisRegionReadsNothing() {
        PullMemory.Block block = memory.acquire(65536);
        MemorySegment good = Arena.ofAuto().allocate(PullDescriptor.BYTES);
        memory.describe(good, block, 65536);
        PeerMemory peers = new PeerMemory();
        MemorySegment d = Arena.ofAuto().allocate(PullDescriptor.BYTES);

        PullDescriptor.write(d, PullDescriptor.pid(good), PullDescriptor.fd(good), PullDescriptor.token(good) + 2,
                PullDescriptor.offset(good), 65536, PullDescriptor.node(good));
        assertNull(peers.payload(d), "another token: a later process that reused the pid");

        PullDescriptor.write(d, PullDescriptor.pid(good), PullDescriptor.fd(good), PullDescriptor.token(good),
                PullDescriptor.offset(good), 65536, PullDescriptor.node(good) + 1);
        assertNull(peers.payload(d), "another network namespace: another host");

        PullDescriptor.write(d, PullDescriptor.pid(good), PullDescriptor.fd(good), PullDescriptor.token(good),
                PullMemory.REGION_BYTES - 4096, 8192, PullDescriptor.node(good));
        assertNull(peers.payload(d), "past the end of the region");

        PullDescriptor.write(d, PullDescriptor.pid(good), PullDescriptor.fd(good), PullDescriptor.token(good), 0,
                64, PullDescriptor.node(good));
        assertNull(peers.payload(d), "the region's own first page is not a payload");

        PullDescriptor.write(d, PullDescriptor.pid(good), 0, PullDescriptor.token(good), PullDescriptor.offset(good),
                65536, PullDescriptor.node(good));
        assertNull(peers.payload(d), "descriptor 0 is not a region (too short to map)");

        PullDescriptor.write(d, Integer.MAX_VALUE, 3, 1, 4096, 64, PullDescriptor.node(good));
        assertNull(peers.payload(d), "no such process");

        assertNotNull(peers.payload(good), "after all of those, the real one still reads");
        memory.release(block);
    }

    @Test
    void idleBlocksBeyondTheBudgetGiveTheirPagesBack() {
        int count = (int) (PullMemory.KEEP_BYTES / (8 << 20)) + 2;
        PullMemory.Block[] blocks = fillThenRelease(memory, count, (byte) 7);
        assertTrue(memory.residentIdleBytes() <= PullMemory.KEEP_BYTES, "idle pages kept: " + memory.residentIdleBytes());
        // the two released first gave their pages back when the last two went past the budget: they read zero now
        assertEquals(0, blocks[0].segment().get(ValueLayout.JAVA_BYTE, 12345));
        assertEquals(0, blocks[1].segment().get(ValueLayout.JAVA_BYTE, 12345));
        assertEquals(7, blocks[2].segment().get(ValueLayout.JAVA_BYTE, 12345));
        assertEquals(7, blocks[count - 1].segment().get(ValueLayout.JAVA_BYTE, 12345));
    }

    /**
     * The budget goes to the blocks released last, whatever their class: idle blocks of a size no longer sent
     * give way to the size in use, which would otherwise give its pages back on every release.
     */
    @Test
    void theLongestIdleGiveTheirPagesBackWhateverTheirClass() {
        PullMemory own = PullMemory.create();
        assertNotNull(own);
        int small = (int) (PullMemory.KEEP_BYTES / (64 << 10));   // the whole budget in idle 64 KiB blocks
        PullMemory.Block[] smalls = new PullMemory.Block[small];
        for (int i = 0; i < small; i++) {
            smalls[i] = own.acquire(64 << 10);
            smalls[i].segment().fill((byte) 3);
        }
        for (PullMemory.Block b : smalls) {
            own.release(b);
        }
        assertEquals(PullMemory.KEEP_BYTES, own.residentIdleBytes());
        PullMemory.Block large = own.acquire(8 << 20);
        large.segment().fill((byte) 5);
        own.release(large);
        assertEquals(5, large.segment().get(ValueLayout.JAVA_BYTE, 12345), "the block just released keeps its pages");
        assertEquals(0, smalls[0].segment().get(ValueLayout.JAVA_BYTE, 0), "the longest idle gave its pages back");
        assertEquals(3, smalls[small - 1].segment().get(ValueLayout.JAVA_BYTE, 0));
        assertTrue(own.residentIdleBytes() <= PullMemory.KEEP_BYTES, "idle pages kept: " + own.residentIdleBytes());
        PullMemory.Block again = own.acquire(8 << 20);
        assertEquals(large.offset(), again.offset(), "and comes back for the next message of its size");
        assertEquals(5, again.segment().get(ValueLayout.JAVA_BYTE, 12345));
        PullMemory.Block first = own.acquire(64 << 10);
        assertEquals(smalls[small - 1].offset(), first.offset(), "a class takes its last released block first");
        own.release(again);
        own.release(first);
    }

    /** A larger budget (a replicated job's: what its log may hold) keeps the pages of that many idle bytes. */
    @Test
    void aLargerBudgetKeepsMoreIdlePagesAndTheSmallestIsTheDefault() {
        long budget = PullMemory.KEEP_BYTES + (32 << 20);
        PullMemory larger = PullMemory.create(budget);
        assertNotNull(larger);
        int count = (int) (budget / (8 << 20));
        PullMemory.Block[] blocks = fillThenRelease(larger, count, (byte) 9);
        assertEquals(budget, larger.residentIdleBytes(), "every idle block within the budget keeps its pages");
        assertEquals(9, blocks[count - 1].segment().get(ValueLayout.JAVA_BYTE, 12345));
        PullMemory smaller = PullMemory.create(1);
        assertNotNull(smaller);
        PullMemory.Block b = smaller.acquire(8 << 20);
        smaller.release(b);
        assertEquals(8 << 20, smaller.residentIdleBytes(), "never fewer than KEEP_BYTES kept");
    }

    /** Takes {@code count} blocks of 8 MiB, writes {@code value} all over each, then gives them all back in order. */
    private static PullMemory.Block[] fillThenRelease(PullMemory memory, int count, byte value) {
        PullMemory.Block[] blocks = new PullMemory.Block[count];
        for (int i = 0; i < count; i++) {
            blocks[i] = memory.acquire(8 << 20);
            blocks[i].segment().fill(value);
        }
        for (PullMemory.Block b : blocks) {
            memory.release(b);
        }
        return blocks;
    }
}

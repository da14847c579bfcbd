package org.fthp.replication.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

/**
 * A waiting spare's heap readied for the largest piece it may take: as much as asked, once per larger size, given
 * up when the wait ends, and kept committed through collections.
 */
class SpareHeapTest {

    private static final long MIB = 1L << 20;

    @Test
    void readiesWhatIsAskedOnceAndKeepsTheHeapCommitted() {
        SpareHeap heap = new SpareHeap(() -> false);
        heap.ready(24 * MIB);
        assertEquals(24 * MIB, heap.readiedBytes());
        heap.ready(8 * MIB);
        assertEquals(24 * MIB, heap.readiedBytes(), "a smaller piece needs nothing more");
        String ratio = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("MaxHeapFreeRatio").getValue();
        assertEquals("100", ratio, "a full collection would otherwise give the faulted-in pages back");
    }

    @Test
    void theEndOfTheWaitStopsAWarmingUnderWay() {
        AtomicInteger asked = new AtomicInteger();
        // the wait ends while the second array is made
        SpareHeap heap = new SpareHeap(() -> asked.incrementAndGet() > 1);
        heap.ready(64 * MIB);
        assertEquals(0, heap.readiedBytes());
        assertTrue(asked.get() <= 3, "stopped at once, asked " + asked.get() + " times");
    }
}

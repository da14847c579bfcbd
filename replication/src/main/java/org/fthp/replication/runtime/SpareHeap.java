package org.fthp.replication.runtime;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * Free heap a waiting spare has faulted in, as much as the largest checkpoint piece its node holds: a spare that
 * takes a rank runs the body, which allocates about that much state, and on a fresh JVM the first touch of each
 * page (the kernel's fault and zeroing) is most of that allocation's time, paid while every survivor waits for the
 * spare. Done once per larger piece, while the spare has nothing else to do: the spare fills that much heap with
 * arrays, drops them and collects, and keeps the heap committed ({@code MaxHeapFreeRatio} 100: a full collection
 * would otherwise give the pages back), so the body's allocation lands on pages already there. The spare holds that
 * much more memory while it waits (and so does the process it becomes: its heap no longer shrinks). A role that
 * comes during the arrays stops the warming at the next one; one that comes during the collection waits for it.
 */
final class SpareHeap {

    /** About the size of each array, so a rollback that comes meanwhile waits for one at most. */
    private static final int CHUNK_BYTES = 4 << 20;
    /** An array's header and alignment: an array this much under a multiple of G1's regions fills them exactly. */
    private static final int ARRAY_OVERHEAD_BYTES = 64;
    /** Heap left free beside the warmed part: the spare's own allocations while it takes a rank. */
    private static final long HEADROOM_BYTES = 64L << 20;

    private final BooleanSupplier stop;
    private long readiedBytes;

    /** {@code stop}: the spare's wait has ended (a warming under way gives up at its next array). */
    SpareHeap(BooleanSupplier stop) {
        this.stop = stop;
    }

    /** How many bytes of free heap are faulted in (0 until a warming completed). */
    long readiedBytes() {
        return readiedBytes;
    }

    /** Readies {@code pieceBytes} of free heap, or as much as the heap's maximum leaves; nothing if already done. */
    void ready(long pieceBytes) {
        Runtime rt = Runtime.getRuntime();
        long room = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()) - HEADROOM_BYTES;
        long want = Math.min(pieceBytes, room);
        if (want <= readiedBytes || want < CHUNK_BYTES) {
            return;
        }
        HotSpotDiagnosticMXBean vm;
        try {
            vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            vm.setVMOption("MaxHeapFreeRatio", "100");
        } catch (RuntimeException e) {
            // no such option in this JVM: a collection might give the pages back
            return;
        }
        int chunk = chunkBytes(vm);
        List<byte[]> touched = new ArrayList<>();
        try {
            for (long done = 0; done < want; done += chunk) {
                if (stop.getAsBoolean()) {
                    return;
                }
                // the allocation zeroes the array: every page of it is faulted in
                touched.add(new byte[chunk]);
            }
        } catch (OutOfMemoryError e) {
            return;
        }
        touched.clear();
        if (stop.getAsBoolean()) {
            return;
        }
        // the arrays' regions become free heap, committed and faulted in, where the body's state is allocated
        System.gc();
        readiedBytes = want;
    }

    /**
     * An array size that fills whole G1 regions (a humongous array of 4 MiB would take a fifth region and touch one
     * page of it); 4 MiB less the header elsewhere.
     */
    private static int chunkBytes(HotSpotDiagnosticMXBean vm) {
        long region;
        try {
            region = Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
        } catch (RuntimeException e) {
            region = 0;
        }
        long regions = region <= 0 ? CHUNK_BYTES : Math.max(region, CHUNK_BYTES / region * region);
        return (int) Math.min(Integer.MAX_VALUE - 8, regions - ARRAY_OVERHEAD_BYTES);
    }
}

package org.fthp.replication.staging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.fthp.msglog.PullDescriptor;

/**
 * This process's staging for large payloads that receivers on its node copy
 * straight into their own buffers ({@code MessageHeader.FLAG_PULL}): one
 * anonymous memory file, mapped shared, that those receivers map read-only
 * through {@code /proc/<pid>/fd/<fd>} ({@link PeerMemory}).
 *
 * <p>Why: a payload in a Java array crosses the native library between two
 * copies (array to staging, staging to array), and the library's own
 * transfer (a cross-process copy that pins pages) is slower than either. A
 * receiver that reads the sender's staging directly makes it one
 * {@code memmove} each side, both at cache speed for the sizes that fit.
 * No native call waits on the other process: the receiver copies from a
 * mapping that stays valid even if the sender dies.
 *
 * <p>In a job with replicas a block holds a whole large logged message
 * (header, then payload: a {@link SharedMessage}), which is at once its log
 * entry and what each copy of the destination reads.
 *
 * <p>The file is sparse ({@link #REGION_BYTES} of address space, pages
 * only where written). Blocks come in size classes a quarter of a power of
 * two apart, from a bump pointer, and go back to idle lists of their class;
 * idle blocks beyond a budget (at least {@link #KEEP_BYTES}) give their pages
 * back to the kernel and keep their addresses, the longest idle first, whatever
 * their class. The budget is shared by the classes: were it kept for the
 * class of the block just released, idle blocks of a size the program does
 * not send any more (a replicated ping-pong's warm-up leaves many small ones)
 * would hold it for good, and every block of the size it does send would
 * give its pages back and fault them in again, on the sender and on each
 * receiver. With replicas the budget is what the send log may hold anyway:
 * its acknowledgements release dozens of entries at once, and a block whose
 * pages went back costs a fault per page to the sender that packs into it
 * again and to every receiver that maps it. The file's first page
 * says whose it is: a magic number, a random token every descriptor repeats,
 * and the region's length.
 *
 * <p>Synchronized: the program's thread takes and gives blocks, another
 * thread may complete an operation.
 */
public final class PullMemory {

    /** Address space of the file; a payload that finds no room goes the native library's way. */
    static final long REGION_BYTES = Long.getLong("fthp.pull.regionBytes", 64L << 30);
    /** Idle bytes kept with their pages, at least. */
    static final long KEEP_BYTES = 64L << 20;
    static final long PAGE = 4096;
    static final long MAGIC = 0x4654_4850_5055_4c4cL;   // "FTHPPULL"
    static final long MAGIC_AT = 0;
    static final long TOKEN_AT = 8;
    static final long LENGTH_AT = 16;

    private final int pid;
    private final int fd;
    private final long token;
    private final long address;
    private final MemorySegment region;
    private long next = PAGE;
    /** Idle blocks with their pages, by class: the last released is taken first (its pages are the warmest). */
    private final Map<Long, ArrayDeque<Long>> resident = new HashMap<>();
    /** The same blocks (offset to size) in the order they went idle: the first gives its pages back first. */
    private final LinkedHashMap<Long, Long> residentByAge = new LinkedHashMap<>();
    private final Map<Long, ArrayDeque<Long>> released = new HashMap<>();
    private long residentIdleBytes;
    /** Idle bytes kept with their pages. */
    private final long keepBytes;

    private PullMemory(int pid, int fd, long token, long address, long keepBytes) {
        this.keepBytes = keepBytes;
        this.pid = pid;
        this.fd = fd;
        this.token = token;
        this.address = address;
        this.region = MemorySegment.ofAddress(address).reinterpret(REGION_BYTES);
        region.set(ValueLayout.JAVA_LONG, MAGIC_AT, MAGIC);
        region.set(ValueLayout.JAVA_LONG, TOKEN_AT, token);
        region.set(ValueLayout.JAVA_LONG, LENGTH_AT, REGION_BYTES);
    }

    /** As {@link #create(long)} with the smallest budget of idle pages. */
    public static PullMemory create() {
        return create(KEEP_BYTES);
    }

    /**
     * The region of this process, keeping the pages of up to {@code keepBytes} idle bytes (at least
     * {@link #KEEP_BYTES}), or null where the kernel or C library cannot make one (its reason on stderr once).
     */
    public static PullMemory create(long keepBytes) {
        if (!SharedMappings.available() || NodeIdentity.CURRENT < 0) {
            return null;
        }
        int fd = -1;
        try {
            fd = SharedMappings.createFile("fthp-pull", REGION_BYTES);
            long address = SharedMappings.map(fd, REGION_BYTES, SharedMappings.PROT_READ | SharedMappings.PROT_WRITE);
            long token = new SplittableRandom().nextLong() | 1L;
            return new PullMemory((int) ProcessHandle.current().pid(), fd, token, address,
                    Math.max(KEEP_BYTES, keepBytes));
        } catch (SharedMappings.MappingException e) {
            if (fd >= 0) {
                SharedMappings.close(fd);
            }
            System.err.println("fthp: large messages go through the native library only: " + e.getMessage());
            return null;
        }
    }

    /** One block of the region: where it starts in the file and its memory. */
    public record Block(long offset, MemorySegment segment) {}

    /** A block of at least {@code bytes}, or null when the region is full. */
    public synchronized Block acquire(long bytes) {
        long size = classBytes(bytes);
        Long offset = poll(resident, size);
        if (offset != null) {
            residentByAge.remove(offset);
            residentIdleBytes -= size;
        } else {
            offset = poll(released, size);
        }
        if (offset == null) {
            if (next + size > REGION_BYTES) {
                return null;
            }
            offset = next;
            next += size;
        }
        return new Block(offset, region.asSlice(offset, size));
    }

    public synchronized void release(Block block) {
        long size = block.segment().byteSize();
        if (size > keepBytes) {
            removePages(block.offset(), size);
            return;
        }
        resident.computeIfAbsent(size, k -> new ArrayDeque<>()).addLast(block.offset());
        residentByAge.put(block.offset(), size);
        residentIdleBytes += size;
        Iterator<Map.Entry<Long, Long>> oldest = residentByAge.entrySet().iterator();
        while (residentIdleBytes > keepBytes) {
            Map.Entry<Long, Long> e = oldest.next();
            long offset = e.getKey(), bytes = e.getValue();
            oldest.remove();
            // the longest idle of its class too: each class list is in the order its blocks went idle
            resident.get(bytes).removeFirst();
            residentIdleBytes -= bytes;
            removePages(offset, bytes);
        }
    }

    private void removePages(long offset, long size) {
        SharedMappings.removePages(address + offset, size);
        released.computeIfAbsent(size, k -> new ArrayDeque<>()).addLast(offset);
    }

    /** Writes where {@code length} bytes at the start of {@code block} are, for a receiver. */
    public void describe(MemorySegment descriptor, Block block, long length) {
        describe(descriptor, block, 0, length);
    }

    /** Writes where {@code length} bytes from {@code from} in {@code block} are, for a receiver. */
    public void describe(MemorySegment descriptor, Block block, long from, long length) {
        if (from < 0 || length < 0 || from > block.segment().byteSize() - length) {
            throw new IndexOutOfBoundsException(length + " bytes from " + from + " in a block of "
                    + block.segment().byteSize());
        }
        PullDescriptor.write(descriptor, pid, fd, token, block.offset() + from, length, NodeIdentity.CURRENT);
    }

    /** Idle bytes whose pages are kept. */
    synchronized long residentIdleBytes() {
        return residentIdleBytes;
    }

    private static Long poll(Map<Long, ArrayDeque<Long>> lists, long size) {
        ArrayDeque<Long> list = lists.get(size);
        return list == null ? null : list.pollLast();
    }

    /** {@code bytes} rounded up to its class (a multiple of a quarter of the power of two below it), in whole pages. */
    static long classBytes(long bytes) {
        long size = MessageMemory.classBytes(bytes);
        return (size + PAGE - 1) / PAGE * PAGE;
    }
}

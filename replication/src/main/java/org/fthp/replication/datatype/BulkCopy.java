package org.fthp.replication.datatype;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Copies of 2 MiB or more between a program's buffer and staging, through the C library's {@code memmove}.
 * {@code MemorySegment.copy} between the heap and native memory runs the JVM's element-wise copy stub; HotSpot's
 * own JNI array copies (which Open MPI's Java binding uses) and the C library move blocks that outgrow the caches
 * faster. A critical downcall may read and write a heap array in place: the array cannot move for the length of
 * the call, since no garbage collection can start in it.
 *
 * <p>Below {@link #THRESHOLD_BYTES} the JDK's copy is as fast or faster; above it {@code memmove} wins, the
 * more the larger the copy (bench's PingPong of {@code byte[]} shows it). A copy is cut in pieces of {@link #PIECE_BYTES},
 * so a safepoint (a collection) never waits on more than one piece: a few hundred microseconds at memory speed.
 */
final class BulkCopy {

    /** From this many bytes a copy goes through {@code memmove}. */
    static final long THRESHOLD_BYTES = 2L << 20;

    /** The most one downcall copies. */
    static final long PIECE_BYTES = 4L << 20;

    /** {@code void *memmove(void *dst, const void *src, size_t n)}, critical: heap segments allowed. */
    private static final MethodHandle MEMMOVE = bind();

    private BulkCopy() {}

    private static MethodHandle bind() {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find("memmove")
                .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), Linker.Option.critical(true)))
                .orElse(null);
    }

    /**
     * Copies {@code bytes} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}, with
     * {@code MemorySegment.copy}'s checks and exceptions (bounds, a read-only destination).
     */
    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        if (bytes < THRESHOLD_BYTES || MEMMOVE == null || dst.isReadOnly()) {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
            return;
        }
        // the slices check both ranges as MemorySegment.copy would
        MemorySegment from = src.asSlice(srcOffset, bytes);
        MemorySegment to = dst.asSlice(dstOffset, bytes);
        for (long done = 0; done < bytes; done += PIECE_BYTES) {
            long n = Math.min(PIECE_BYTES, bytes - done);
            try {
                MemorySegment unused = (MemorySegment) MEMMOVE.invokeExact(to.asSlice(done, n), from.asSlice(done, n),
                        n);
            } catch (Throwable t) {
                throw new IllegalStateException("memmove of " + n + " bytes failed", t);
            }
        }
    }
}

package org.fthp.replication.datatype;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * A user's message buffer: a Java primitive array, or a {@link Buffer} seen as
 * bytes from its start (position ignored, as Open MPI's binding does; use
 * {@code MPI.slice} for an offset). Validates what the program passed before
 * anything is copied, so bad input never reaches native code.
 */
public final class UserBuffer {

    /**
     * Where a user's data starts in a {@link UserBuffer}: always its first
     * byte, because a heap buffer's array offset (what {@code MPI.slice} sets)
     * is already applied when the buffer is wrapped.
     */
    public static final long START = 0;

    private final Object array;          // primitive array, or null
    private final MemorySegment segment; // buffer bytes, or null
    private final int arrayElementBytes;
    private final long bytes;

    private UserBuffer(Object array, MemorySegment segment, int arrayElementBytes, long bytes) {
        this.array = array;
        this.segment = segment;
        this.arrayElementBytes = arrayElementBytes;
        this.bytes = bytes;
    }

    /**
     * Wraps {@code buf} for {@code type}; null if {@code buf} is neither an
     * array nor a buffer. Throws {@link IllegalArgumentException} with a reason
     * when the array's element type does not suit the datatype.
     */
    public static UserBuffer of(Object buf, TypeLayout type) {
        if (buf instanceof Buffer b) {
            MemorySegment seg = BufferSegments.of(b);
            return new UserBuffer(null, seg, 1, seg.byteSize());
        }
        if (buf == null || !buf.getClass().isArray() || !buf.getClass().componentType().isPrimitive()) {
            return null;
        }
        BaseType base = type.base();
        if (base.arrayClass() != buf.getClass()) {
            throw new IllegalArgumentException("datatype of " + base + " items needs a "
                    + base.arrayClass().getSimpleName() + " buffer, got " + buf.getClass().getSimpleName());
        }
        int eb = base.arrayElementBytes();
        return new UserBuffer(buf, null, eb, (long) java.lang.reflect.Array.getLength(buf) * eb);
    }

    public long bytes() { return bytes; }

    /**
     * The buffer's memory if it is native (a direct buffer), which never moves
     * and so may be handed to a native nonblocking operation; null otherwise.
     */
    public MemorySegment directSegment() {
        return segment != null && segment.isNative() ? segment : null;
    }
    public boolean isArray() { return array != null; }
    Object array() { return array; }
    MemorySegment segment() { return segment; }
    int arrayElementBytes() { return arrayElementBytes; }

    /** Bytes from the buffer start that {@code count} items of {@code type} at {@code offsetItems} reach. */
    public static long span(long count, TypeLayout type) {
        if (count == 0 || type.size() == 0) {
            return 0;
        }
        return (count - 1) * type.extent() + type.trueLb() + type.trueExtent();
    }
}

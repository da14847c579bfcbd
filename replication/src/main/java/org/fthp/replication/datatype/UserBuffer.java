package org.fthp.replication.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * A user's message buffer seen as raw bytes in native byte order, as Open
 * MPI's binding sees it: a Java primitive array of any element type (the
 * datatype need not match it: {@code int[]} sent as BYTE sends the int's
 * bytes), or a {@link Buffer} from its start (position ignored; use
 * {@code MPI.slice} for an offset).
 *
 * <p>The data starts at the buffer's <em>origin</em>: byte 0 of an array or
 * direct buffer, or the array offset of a heap buffer (what {@code MPI.slice}
 * sets). A datatype may reach before the origin (a negative lower bound or
 * displacement) as far as the bytes still lie inside the array: the callers
 * check {@code [-bytesBefore(), bytes())} before anything is copied, so bad
 * input never reaches native code, and the copies are bounds-checked by the
 * JDK as a last line of defence.
 */
public final class UserBuffer {

    /** Where a user's data starts, relative to the origin: always the origin itself. */
    public static final long START = 0;

    private final MemorySegment segment; // every byte of the array or buffer; null for a boolean[]
    private final boolean[] booleans;    // a boolean[] (no memory-segment view exists for it), or null
    private final long origin;           // byte of segment (or index of booleans) where the data starts
    private final Object array;          // the program's array wrapped whole, or null
    /** The program's object this wraps whole, RecentBuffers' key: the array, or a direct buffer; else null. */
    private final Object key;
    /**
     * With {@link #array}: its element as a layout (native order, unaligned) and the log2 of its size. A copy
     * of whole elements between the array and native memory goes through {@code MemorySegment.copy}'s array
     * form, which checks less than the copy between two segments (no second session, no overlap): a visible
     * share of a small send and receive.
     */
    private final ValueLayout element;
    private final int elementShift;

    private UserBuffer(MemorySegment segment, boolean[] booleans, long origin, Object array, ValueLayout element,
                       int elementShift) {
        this(segment, booleans, origin, array, element, elementShift, array);
    }

    private UserBuffer(MemorySegment segment, boolean[] booleans, long origin, Object array, ValueLayout element,
                       int elementShift, Object key) {
        this.segment = segment;
        this.booleans = booleans;
        this.origin = origin;
        this.array = array;
        this.element = element;
        this.elementShift = elementShift;
        this.key = key;
    }

    private UserBuffer(MemorySegment segment, boolean[] booleans, long origin) {
        this(segment, booleans, origin, null, null, 0);
    }

    /** The heap segment of a primitive array but a {@code boolean[]} (which has none), or null for anything else. */
    public static MemorySegment arraySegment(Object array) {
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            case null, default -> null;
        };
    }

    /** Wraps {@code buf}; null if it is neither a primitive array nor a buffer. */
    public static UserBuffer of(Object buf) {
        return switch (buf) {
            case null -> null;
            case boolean[] z -> new UserBuffer(null, z, 0);
            case byte[] a -> new UserBuffer(MemorySegment.ofArray(a), null, 0, a, ValueLayout.JAVA_BYTE, 0);
            case char[] a -> new UserBuffer(MemorySegment.ofArray(a), null, 0, a, ValueLayout.JAVA_CHAR_UNALIGNED, 1);
            case short[] a -> new UserBuffer(MemorySegment.ofArray(a), null, 0, a, ValueLayout.JAVA_SHORT_UNALIGNED, 1);
            case int[] a -> new UserBuffer(MemorySegment.ofArray(a), null, 0, a, ValueLayout.JAVA_INT_UNALIGNED, 2);
            case long[] a -> new UserBuffer(MemorySegment.ofArray(a), null, 0, a, ValueLayout.JAVA_LONG_UNALIGNED, 3);
            case float[] a -> new UserBuffer(MemorySegment.ofArray(a), null, 0, a, ValueLayout.JAVA_FLOAT_UNALIGNED, 2);
            case double[] a ->
                    new UserBuffer(MemorySegment.ofArray(a), null, 0, a, ValueLayout.JAVA_DOUBLE_UNALIGNED, 3);
            case Buffer b -> ofBuffer(b);
            default -> null;
        };
    }

    /**
     * A heap buffer is its whole backing array from its array offset (bytes
     * before the offset are the program's too, and a datatype may reach
     * them); a direct or read-only buffer is its own bytes only.
     */
    private static UserBuffer ofBuffer(Buffer b) {
        if (!b.isDirect() && b.hasArray()) {
            MemorySegment whole = arraySegment(b.array());
            if (whole != null) {
                return new UserBuffer(whole, null, (long) b.arrayOffset() * elementBytes(b));
            }
        }
        // a direct buffer's memory never moves, and its position is ignored: one wrap serves every call
        return new UserBuffer(BufferSegments.of(b), null, 0, null, null, 0, b.isDirect() ? b : null);
    }

    private static int elementBytes(Buffer b) {
        return switch (b) {
            case ByteBuffer x -> 1;
            case CharBuffer x -> 2;
            case ShortBuffer x -> 2;
            case IntBuffer x -> 4;
            case FloatBuffer x -> 4;
            case LongBuffer x -> 8;
            case DoubleBuffer x -> 8;
            default -> 1;
        };
    }

    /**
     * The program's array this wraps whole (any primitive type but boolean; its byte 0 is the origin), or null:
     * for a native copy straight from or into it.
     */
    public Object array() {
        return array;
    }

    /** The program's object a later call may pass again for the same wrap (an array, a direct buffer), or null. */
    Object key() {
        return key;
    }

    /** Bytes from the origin to the end of the array or buffer. */
    public long bytes() {
        return (segment != null ? segment.byteSize() : booleans.length) - origin;
    }

    /** Bytes of the array before the origin, which a datatype may reach with a negative displacement. */
    public long bytesBefore() {
        return origin;
    }

    /**
     * The buffer's memory if it is native (a direct buffer), which never moves
     * and so may be handed to a native nonblocking operation; null otherwise.
     * Its origin is always its first byte.
     */
    public MemorySegment directSegment() {
        return segment != null && segment.isNative() ? segment : null;
    }

    /**
     * The memory of the whole array or buffer (heap or native), or null for a {@code boolean[]}: for a copy that
     * reads it by address ({@link #offsetOf}).
     */
    public MemorySegment memory() {
        return segment;
    }

    /** The offset in {@link #memory} of byte {@code at}, relative to the origin. */
    public long offsetOf(long at) {
        return origin + at;
    }

    /** Copies {@code len} bytes from byte {@code at} (relative to the origin) into {@code dst}. */
    void copyOut(long at, MemorySegment dst, long dstOff, long len) {
        if (booleans != null) {
            int from = Math.toIntExact(origin + at);
            for (int k = 0; k < len; k++) {
                dst.set(ValueLayout.JAVA_BYTE, dstOff + k, booleans[from + k] ? (byte) 1 : 0);
            }
            return;
        }
        if (byElements(origin + at, len)) {
            MemorySegment.copy(array, (int) ((origin + at) >> elementShift), dst, element, dstOff,
                    (int) (len >> elementShift));
            return;
        }
        BulkCopy.copy(segment, origin + at, dst, dstOff, len);
    }

    /** Copies {@code len} bytes from {@code src} to byte {@code at} (relative to the origin). */
    void copyIn(MemorySegment src, long srcOff, long at, long len) {
        if (booleans != null) {
            int to = Math.toIntExact(origin + at);
            for (int k = 0; k < len; k++) {
                booleans[to + k] = src.get(ValueLayout.JAVA_BYTE, srcOff + k) != 0;
            }
            return;
        }
        if (byElements(origin + at, len)) {
            MemorySegment.copy(src, element, srcOff, array, (int) ((origin + at) >> elementShift),
                    (int) (len >> elementShift));
            return;
        }
        BulkCopy.copy(src, srcOff, segment, origin + at, len);
    }

    /**
     * Whether {@code len} bytes from byte {@code from} of the array are whole elements, few enough for the JDK's
     * copy ({@link BulkCopy} moves larger ones faster).
     */
    private boolean byElements(long from, long len) {
        return array != null && len < BulkCopy.THRESHOLD_BYTES && ((from | len) & ((1 << elementShift) - 1)) == 0;
    }

    /**
     * The first byte, relative to where the items start, that {@code count}
     * items of {@code type} touch: before the start if the type reaches back
     * (a negative displacement or extent).
     */
    public static long firstByte(long count, TypeLayout type) {
        if (count == 0 || type.size() == 0) {
            return 0;
        }
        return type.trueLb() + Math.min(0, (count - 1) * type.extent());
    }

    /** One past the last byte, relative to where the items start, that {@code count} items of {@code type} touch. */
    public static long span(long count, TypeLayout type) {
        if (count == 0 || type.size() == 0) {
            return 0;
        }
        return type.trueLb() + type.trueExtent() + Math.max(0, (count - 1) * type.extent());
    }
}

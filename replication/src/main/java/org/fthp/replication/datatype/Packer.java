package org.fthp.replication.datatype;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies items between a user buffer and contiguous staging memory, following
 * a {@link TypeLayout}: the pure-Java counterpart of MPI_Pack/MPI_Unpack.
 * Bounds are the caller's to check first (see {@link UserBuffer#span}); the
 * copies themselves are bounds-checked by the JDK as a last line of defence.
 */
public final class Packer {

    private Packer() {}

    /** Packs {@code count} items starting at byte {@code startByte} of {@code buf} into {@code dst} at {@code dstOff}. */
    public static void pack(UserBuffer buf, long startByte, int count, TypeLayout type, MemorySegment dst, long dstOff) {
        if (count == 0 || type.size() == 0) {
            return;
        }
        if (type.isDense()) {
            copyOut(buf, startByte, dst, dstOff, count * type.size(), type);
            return;
        }
        long out = dstOff;
        for (long i = 0; i < count; i++) {
            long itemStart = startByte + i * type.extent();
            for (int b = 0; b < type.blockCount(); b++) {
                long len = type.blockLen(b);
                copyOut(buf, itemStart + type.blockDisp(b), dst, out, len, type);
                out += len;
            }
        }
    }

    /** Unpacks {@code count} items from {@code src} at {@code srcOff} into {@code buf} from byte {@code startByte}. */
    public static void unpack(MemorySegment src, long srcOff, UserBuffer buf, long startByte, int count, TypeLayout type) {
        if (count == 0 || type.size() == 0) {
            return;
        }
        if (type.isDense()) {
            copyIn(src, srcOff, buf, startByte, count * type.size(), type);
            return;
        }
        long in = srcOff;
        for (long i = 0; i < count; i++) {
            long itemStart = startByte + i * type.extent();
            for (int b = 0; b < type.blockCount(); b++) {
                long len = type.blockLen(b);
                copyIn(src, in, buf, itemStart + type.blockDisp(b), len, type);
                in += len;
            }
        }
    }

    /**
     * MPI_Pack into a byte array: packs {@code count} items of {@code buf}
     * from byte {@code startByte} into {@code out} at {@code position}, through
     * off-heap scratch memory. The caller has checked that they fit.
     */
    public static void packToBytes(UserBuffer buf, long startByte, int count, TypeLayout type, byte[] out,
                                   int position) {
        long bytes = count * type.size();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment tmp = a.allocate(Math.max(1, bytes));
            pack(buf, startByte, count, type, tmp, 0);
            MemorySegment.copy(tmp, ValueLayout.JAVA_BYTE, 0, out, position, (int) bytes);
        }
    }

    /**
     * MPI_Unpack from a byte array: unpacks {@code count} items of
     * {@code type} from {@code in} at {@code position} into {@code buf} from
     * byte {@code startByte}. The caller has checked that they fit.
     */
    public static void unpackFromBytes(byte[] in, int position, UserBuffer buf, long startByte, int count,
                                       TypeLayout type) {
        long bytes = count * type.size();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment tmp = a.allocate(Math.max(1, bytes));
            MemorySegment.copy(in, position, tmp, ValueLayout.JAVA_BYTE, 0, (int) bytes);
            unpack(tmp, 0, buf, startByte, count, type);
        }
    }

    private static void copyOut(UserBuffer buf, long at, MemorySegment dst, long dstOff, long len, TypeLayout type) {
        if (!buf.isArray()) {
            MemorySegment.copy(buf.segment(), at, dst, dstOff, len);
            return;
        }
        Object array = buf.array();
        int eb = buf.arrayElementBytes();
        if (array instanceof boolean[] z) {
            for (long k = 0; k < len; k++) {
                dst.set(ValueLayout.JAVA_BYTE, dstOff + k, z[(int) (at + k)] ? (byte) 1 : 0);
            }
            return;
        }
        checkAligned(at, len, eb);
        MemorySegment.copy(array, (int) (at / eb), dst, layoutOf(array), dstOff, (int) (len / eb));
    }

    private static void copyIn(MemorySegment src, long srcOff, UserBuffer buf, long at, long len, TypeLayout type) {
        if (!buf.isArray()) {
            MemorySegment.copy(src, srcOff, buf.segment(), at, len);
            return;
        }
        Object array = buf.array();
        int eb = buf.arrayElementBytes();
        if (array instanceof boolean[] z) {
            for (long k = 0; k < len; k++) {
                z[(int) (at + k)] = src.get(ValueLayout.JAVA_BYTE, srcOff + k) != 0;
            }
            return;
        }
        checkAligned(at, len, eb);
        MemorySegment.copy(src, layoutOf(array), srcOff, array, (int) (at / eb), (int) (len / eb));
    }

    private static void checkAligned(long at, long len, int eb) {
        if (at % eb != 0 || len % eb != 0) {
            throw new IllegalArgumentException("datatype splits an array element (" + eb + " bytes)");
        }
    }

    private static ValueLayout layoutOf(Object array) {
        return switch (array) {
            case byte[] a -> ValueLayout.JAVA_BYTE;
            case char[] a -> ValueLayout.JAVA_CHAR_UNALIGNED;
            case short[] a -> ValueLayout.JAVA_SHORT_UNALIGNED;
            case int[] a -> ValueLayout.JAVA_INT_UNALIGNED;
            case long[] a -> ValueLayout.JAVA_LONG_UNALIGNED;
            case float[] a -> ValueLayout.JAVA_FLOAT_UNALIGNED;
            case double[] a -> ValueLayout.JAVA_DOUBLE_UNALIGNED;
            default -> throw new IllegalArgumentException("unsupported buffer " + array.getClass());
        };
    }
}

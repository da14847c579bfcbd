package org.fthp.replication.datatype;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies items between a user buffer and contiguous staging memory, following
 * a {@link TypeLayout}: the pure-Java counterpart of MPI_Pack/MPI_Unpack.
 * Bounds are the caller's to check first (see {@link UserBuffer#firstByte} and
 * {@link UserBuffer#span}); the
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
            buf.copyOut(startByte, dst, dstOff, count * type.size());
            return;
        }
        long out = dstOff;
        for (long i = 0; i < count; i++) {
            long itemStart = startByte + i * type.extent();
            for (int b = 0; b < type.blockCount(); b++) {
                long len = type.blockLen(b);
                buf.copyOut(itemStart + type.blockDisp(b), dst, out, len);
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
            buf.copyIn(src, srcOff, startByte, count * type.size());
            return;
        }
        long in = srcOff;
        for (long i = 0; i < count; i++) {
            long itemStart = startByte + i * type.extent();
            for (int b = 0; b < type.blockCount(); b++) {
                long len = type.blockLen(b);
                buf.copyIn(src, in, itemStart + type.blockDisp(b), len);
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
}

package org.fthp.replication.sdc;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.zip.CRC32C;

/**
 * A CRC32C over a stream of byte ranges, computed by the fused kernel ({@link CrcKernel}) where it runs, else by
 * the JDK's intrinsic; the values are the same either way.
 *
 * <p>With the kernel, a range copied into staging is hashed in the same pass ({@link #copyAndUpdate}): the copy's
 * loads feed the CRC, so hashing costs no second pass over the bytes, and from memory the copy and its hash cost
 * about what the copy alone does (bench/README, twin comparison).
 *
 * <p>Why CRC32C: HotSpot compiles {@code java.util.zip.CRC32C} to the CPU's CRC32 instruction over three
 * interleaved streams (measured here: 38-44 GB/s on 64 KiB to 4 MiB, a tenth of a copy's cost), faster than any
 * hash written in Java over the same bytes, and it catches every single-bit error and every burst up to 32 bits.
 * Memory is handed over as a direct buffer view of the segment: the view does not escape the inlined
 * {@code CRC32C.update}, so the JIT removes its allocation (measured: 0 bytes per fold once compiled). Where the
 * JVM has {@code java.util.zip} opened to the class path, the intrinsic is called by address instead, which does not
 * depend on that analysis; the value is the same either way.
 */
public final class RunningCrc {

    private static final MethodHandle BY_ADDRESS = byAddress();
    /** Largest span handed to the intrinsic at once (its offsets are ints). */
    private static final long CHUNK = 1L << 30;

    /** Null: the JDK's intrinsic. */
    private final CrcKernel kernel;
    /** The JDK's running form (inverted), when folding by the kernel or by address. */
    private int crc = 0xFFFFFFFF;
    /** Otherwise the JDK's own object holds it. */
    private final CRC32C jdk;
    /** Where an envelope is laid out for the JDK's object. */
    private final byte[] envelope = new byte[24];

    public RunningCrc() {
        this(CrcKernel.get());
    }

    /** {@code kernel} null: the JDK's intrinsic. */
    RunningCrc(CrcKernel kernel) {
        this.kernel = kernel;
        this.jdk = kernel == null && BY_ADDRESS == null ? new CRC32C() : null;
    }

    private static MethodHandle byAddress() {
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(CRC32C.class, MethodHandles.lookup());
            return l.findStatic(CRC32C.class, "updateDirectByteBuffer",
                    MethodType.methodType(int.class, int.class, long.class, int.class, int.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Folds {@code len} bytes of {@code seg} from {@code off}. */
    public void update(MemorySegment seg, long off, long len) {
        if (len <= 0) {
            return;
        }
        if (kernel != null) {
            crc = kernel.fold(crc, seg, off, len);
            return;
        }
        if (BY_ADDRESS != null && seg.isNative()) {
            long address = seg.address() + off;
            try {
                for (long done = 0; done < len; done += CHUNK) {
                    crc = (int) BY_ADDRESS.invokeExact(crc, address + done, 0, (int) Math.min(CHUNK, len - done));
                }
            } catch (Throwable t) {
                throw new IllegalStateException("CRC32C intrinsic", t);
            }
            return;
        }
        if (jdk != null && (seg.isNative() || seg.heapBase().orElse(null) instanceof byte[])) {
            for (long done = 0; done < len; done += CHUNK) {
                jdk.update(seg.asSlice(off + done, Math.min(CHUNK, len - done)).asByteBuffer());
            }
            return;
        }
        throw new IllegalArgumentException("only native or byte[] memory is hashed, not " + seg);
    }

    /** Whether {@link #update} reads any heap array in place (with the kernel), not only byte arrays. */
    public boolean readsAnyHeapArray() {
        return kernel != null;
    }

    /** Whether {@link #copyAndUpdate} hashes in the copy's own pass. */
    public boolean fusesCopy() {
        return kernel != null;
    }

    /**
     * Copies {@code len} bytes from {@code src} at {@code srcOff} to {@code dst} at {@code dstOff} (not overlapping)
     * and folds them, in one pass with the kernel; bounds are checked as {@code MemorySegment.copy} does.
     */
    public void copyAndUpdate(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long len) {
        if (kernel != null) {
            crc = kernel.copyAndFold(crc, src, srcOff, dst, dstOff, len);
            return;
        }
        MemorySegment.copy(src, srcOff, dst, dstOff, len);
        update(dst, dstOff, len);
    }

    /**
     * Folds a send's envelope: {@code a}, {@code b} and {@code c} as ints, four zero bytes, {@code len} as a long,
     * in native byte order (24 bytes, what {@link #update} of them laid out so would fold). Folded here in plain
     * arithmetic, eight bytes per step (slicing by 8: eight independent table lookups, so a step costs one load's
     * latency, not eight): a send's envelope is too short to be worth a native call, and the program's first
     * thousand sends or so run this before the JIT has compiled it, where a memory segment's accessors and a
     * downcall's method handles cost microseconds each and plain arithmetic does not.
     */
    public void updateEnvelope(int a, int b, int c, long len) {
        if (jdk != null) {
            byte[] e = envelope;
            putInt(e, 0, a);
            putInt(e, 4, b);
            putInt(e, 8, c);
            putInt(e, 12, 0);
            putLong(e, 16, len);
            jdk.update(e, 0, 24);
            return;
        }
        int r = fold8(crc, ints(a, b));
        r = fold8(r, ints(c, 0));
        crc = fold8(r, LITTLE_ENDIAN ? len : Long.reverseBytes(len));
    }

    /** Folds {@code len} as a long in native byte order (8 bytes), as {@link #updateEnvelope} does its last. */
    public void updateLong(long len) {
        if (jdk != null) {
            putLong(envelope, 0, len);
            jdk.update(envelope, 0, 8);
            return;
        }
        crc = fold8(crc, LITTLE_ENDIAN ? len : Long.reverseBytes(len));
    }

    /**
     * CRC32C (Castagnoli, reflected) tables for slicing by 8: {@code SLICE[t][i]} is byte {@code i} followed by
     * {@code t} zero bytes, in the register form the JDK's and the kernel's share.
     */
    private static final int[][] SLICE = new int[8][256];
    private static final int[] T0 = SLICE[0], T1 = SLICE[1], T2 = SLICE[2], T3 = SLICE[3], T4 = SLICE[4],
            T5 = SLICE[5], T6 = SLICE[6], T7 = SLICE[7];
    private static final boolean LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;

    static {
        for (int i = 0; i < 256; i++) {
            int r = i;
            for (int k = 0; k < 8; k++) {
                r = (r >>> 1) ^ (0x82F63B78 & -(r & 1));
            }
            T0[i] = r;
        }
        for (int t = 1; t < 8; t++) {
            for (int i = 0; i < 256; i++) {
                SLICE[t][i] = (SLICE[t - 1][i] >>> 8) ^ T0[SLICE[t - 1][i] & 0xff];
            }
        }
    }

    /** Eight bytes laid out as {@code first} then {@code second}, native order, read as a little-endian long. */
    private static long ints(int first, int second) {
        return LITTLE_ENDIAN ? (first & 0xFFFFFFFFL) | ((long) second << 32)
                : Long.reverseBytes(((long) first << 32) | (second & 0xFFFFFFFFL));
    }

    /**
     * Register {@code r} with eight bytes folded in, {@code v} their little-endian reading: a reflected CRC takes
     * the first byte in its low bits, so xoring the register in and looking each byte up by its distance from the
     * end folds all eight at once.
     */
    private static int fold8(int r, long v) {
        long x = v ^ (r & 0xFFFFFFFFL);
        return T7[(int) x & 0xff] ^ T6[(int) (x >>> 8) & 0xff] ^ T5[(int) (x >>> 16) & 0xff]
                ^ T4[(int) (x >>> 24) & 0xff] ^ T3[(int) (x >>> 32) & 0xff] ^ T2[(int) (x >>> 40) & 0xff]
                ^ T1[(int) (x >>> 48) & 0xff] ^ T0[(int) (x >>> 56) & 0xff];
    }

    private static void putInt(byte[] e, int at, int v) {
        for (int i = 0; i < 4; i++) {
            e[at + i] = (byte) (LITTLE_ENDIAN ? v >>> (8 * i) : v >>> (24 - 8 * i));
        }
    }

    private static void putLong(byte[] e, int at, long v) {
        for (int i = 0; i < 8; i++) {
            e[at + i] = (byte) (LITTLE_ENDIAN ? v >>> (8 * i) : v >>> (56 - 8 * i));
        }
    }

    /** Folds {@code len} bytes of {@code b} from {@code off}. */
    public void update(byte[] b, int off, int len) {
        if (jdk != null) {
            jdk.update(b, off, len);
        } else {
            update(MemorySegment.ofArray(b), off, len);
        }
    }

    /** The CRC32C of everything folded so far. */
    public long value() {
        return jdk != null ? jdk.getValue() : ~crc & 0xFFFFFFFFL;
    }
}

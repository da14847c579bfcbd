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
    /** Whether a send's envelope goes into the kernel's call that copies its payload (by JNI). */
    private final boolean envelopeInCopy;
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
        this.envelopeInCopy = kernel != null && kernel.jni();
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
     * A send's envelope ({@link #updateEnvelope}) and then its payload as {@link #copyAndUpdate} copies and folds
     * it: with the kernel called by JNI, in one call (the envelope's 24 bytes cost three CRC32 instructions there,
     * less than any fold in Java or a call of their own).
     */
    public void copyAndUpdateSent(int a, int b, int c, long envelopeLen, MemorySegment src, long srcOff,
                                  MemorySegment dst, long dstOff, long len) {
        if (envelopeInCopy) {
            crc = kernel.copyAndFoldSent(crc, a, b, c, envelopeLen, src, srcOff, dst, dstOff, len);
            return;
        }
        updateEnvelope(a, b, c, envelopeLen);
        copyAndUpdate(src, srcOff, dst, dstOff, len);
    }

    /**
     * Folds a send's envelope: {@code a}, {@code b} and {@code c} as ints, four zero bytes, {@code len} as a long,
     * in native byte order (24 bytes, what {@link #update} of them laid out so would fold), in plain arithmetic
     * ({@link CrcWords}): a send's envelope is too short to be worth a native call of its own, and the program's
     * first thousand sends or so run this before the JIT has compiled it, where a memory segment's accessors and a
     * downcall's method handles cost microseconds each and plain arithmetic does not. A send packed by the kernel
     * called by JNI folds its envelope in that call instead ({@link #copyAndUpdateSent}).
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
        crc = CrcWords.envelope(crc, a, b, c, len);
    }

    /** Folds {@code len} as a long in native byte order (8 bytes), as {@link #updateEnvelope} does its last. */
    public void updateLong(long len) {
        if (jdk != null) {
            putLong(envelope, 0, len);
            jdk.update(envelope, 0, 8);
            return;
        }
        crc = CrcWords.word(crc, len);
    }

    private static final boolean LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;

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

package org.fthp.replication.sdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The fused kernel against {@code java.util.zip.CRC32C} and a plain copy, and the Java path beside it. */
class CrcKernelTest {

    private static final byte GUARD = (byte) 0xA5;

    private static CrcKernel kernel() {
        CrcKernel k = CrcKernel.get();
        Assumptions.assumeTrue(k != null, "no fused kernel on this machine (no C compiler or no AVX-512/VPCLMULQDQ)");
        return k;
    }

    /** Both entries to the kernel: JNI (what {@link CrcKernel#get} calls here) and FFM downcalls. */
    private static CrcKernel[] entries() {
        CrcKernel jni = kernel();
        assertTrue(jni.jni(), "this JDK has jni.h: the kernel is called by JNI");
        CrcKernel ffm = CrcKernel.byDowncalls();
        assertFalse(ffm.jni());
        return new CrcKernel[] {jni, ffm};
    }

    private static String entry(CrcKernel k) {
        return k.jni() ? "JNI" : "FFM";
    }

    private static long jdk(MemorySegment seg, long off, long len) {
        CRC32C c = new CRC32C();
        c.update(seg.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE));
        return c.getValue();
    }

    /** The JDK's CRC32C of a send's envelope (a, b, c, four zero bytes, len; native order) and then the payload. */
    private static long jdkSent(int a, int b, int c, long envelopeLen, MemorySegment seg, long off, long len) {
        ByteBuffer e = ByteBuffer.allocate(24).order(java.nio.ByteOrder.nativeOrder());
        e.putInt(0, a).putInt(4, b).putInt(8, c).putLong(16, envelopeLen);
        CRC32C crc = new CRC32C();
        crc.update(e);
        crc.update(seg.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE));
        return crc.getValue();
    }

    /** Every length to past the 512-byte main step twice over, then random ones, at random alignments, by both entries. */
    @Test
    void copyAndFoldIsTheJdksCrc32cAndAnExactCopyAtAnyLengthOffsetAndAlignment() {
        Random r = new Random(11);
        int max = 300_000;
        MemorySegment nativeSrc = Arena.ofAuto().allocate(max + 128, 64);
        byte[] heapSrc = new byte[max + 128];
        r.nextBytes(heapSrc);
        MemorySegment.copy(heapSrc, 0, nativeSrc, ValueLayout.JAVA_BYTE, 0, heapSrc.length);
        MemorySegment dst = Arena.ofAuto().allocate(max + 256, 64);
        MemorySegment heapDst = MemorySegment.ofArray(new long[(max + 256) / 8]);
        for (CrcKernel k : entries()) {
            assertTrue(new RunningCrc(k).fusesCopy());
            for (int trial = 0; trial < 3000; trial++) {
                long len = trial < 1100 ? trial : r.nextInt(max);
                long srcOff = r.nextInt(64);
                long dstOff = r.nextInt(64);
                // sources: native, a heap array, a slice of a heap array (its address is not 0), a read-only one
                MemorySegment src = switch (trial % 4) {
                    case 0 -> nativeSrc;
                    case 1 -> MemorySegment.ofArray(heapSrc);
                    case 2 -> MemorySegment.ofArray(heapSrc).asSlice(24);
                    default -> MemorySegment.ofArray(heapSrc).asReadOnly();
                };
                MemorySegment into = trial % 7 == 3 ? heapDst : dst;
                if (srcOff + len > src.byteSize()) {
                    len = src.byteSize() - srcOff;
                }
                into.fill(GUARD);
                RunningCrc crc = new RunningCrc(k);
                crc.copyAndUpdate(src, srcOff, into, dstOff, len);
                String at = entry(k) + ", length " + len + ", source " + src + " offset " + srcOff
                        + ", destination offset " + dstOff;
                assertEquals(jdk(src, srcOff, len), crc.value(), at);
                assertEquals(-1, into.asSlice(dstOff, len).mismatch(src.asSlice(srcOff, len)), at);
                if (dstOff > 0) {
                    assertEquals(GUARD, into.get(ValueLayout.JAVA_BYTE, dstOff - 1), at);
                }
                assertEquals(GUARD, into.get(ValueLayout.JAVA_BYTE, dstOff + len), at);
                RunningCrc hashOnly = new RunningCrc(k);
                hashOnly.update(src, srcOff, len);
                assertEquals(jdk(src, srcOff, len), hashOnly.value(), at);
                // a send's envelope folded in the call that copies its payload
                int a = r.nextInt();
                int b = r.nextInt();
                int c = r.nextInt();
                into.fill(GUARD);
                RunningCrc sent = new RunningCrc(k);
                sent.copyAndUpdateSent(a, b, c, len, src, srcOff, into, dstOff, len);
                assertEquals(jdkSent(a, b, c, len, src, srcOff, len), sent.value(), at);
                assertEquals(-1, into.asSlice(dstOff, len).mismatch(src.asSlice(srcOff, len)), at);
                assertEquals(GUARD, into.get(ValueLayout.JAVA_BYTE, dstOff + len), at);
            }
        }
    }

    /** Above one piece, the calls chain the register: the whole is still the CRC of the whole, by both entries. */
    @Test
    void rangesLongerThanOnePieceAreFoldedPieceByPiece() {
        long len = CrcKernel.PIECE * 2 + 12_347;
        MemorySegment src = Arena.ofAuto().allocate(len);
        Random r = new Random(3);
        for (long i = 0; i + 8 <= len; i += 8) {
            src.set(ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
        byte[] heap = src.toArray(ValueLayout.JAVA_BYTE);
        MemorySegment dst = Arena.ofAuto().allocate(len);
        long want = jdk(src, 0, len);
        for (CrcKernel k : entries()) {
            for (MemorySegment from : new MemorySegment[] {src, MemorySegment.ofArray(heap)}) {
                dst.fill((byte) 0);
                RunningCrc crc = new RunningCrc(k);
                crc.copyAndUpdate(from, 0, dst, 0, len);
                assertEquals(want, crc.value(), entry(k) + " " + from);
                assertEquals(-1, dst.mismatch(src), entry(k) + " " + from);
                RunningCrc hashOnly = new RunningCrc(k);
                hashOnly.update(from, 0, len);
                assertEquals(want, hashOnly.value(), entry(k) + " " + from);
                dst.fill((byte) 0);
                RunningCrc sent = new RunningCrc(k);
                sent.copyAndUpdateSent(7, -3, 1 << 30, len, from, 0, dst, 0, len);
                assertEquals(jdkSent(7, -3, 1 << 30, len, src, 0, len), sent.value(), entry(k) + " " + from);
                assertEquals(-1, dst.mismatch(src), entry(k) + " " + from);
            }
        }
    }

    /** A running hash over pieces, fused and not, native and every kind of heap array, is the CRC of the whole. */
    @Test
    void aRunningHashOverMixedPiecesIsTheCrcOfTheWholeOnTheKernelAndInJava() {
        Random r = new Random(5);
        double[] doubles = new double[200_001];
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = r.nextGaussian();
        }
        MemorySegment src = MemorySegment.ofArray(doubles);
        long total = src.byteSize();
        MemorySegment into = Arena.ofAuto().allocate(total);
        long want = jdk(src, 0, total);
        CrcKernel[] both = entries();
        for (RunningCrc crc : new RunningCrc[] {new RunningCrc(both[0]), new RunningCrc(both[1]), new RunningCrc(null)}) {
            into.fill((byte) 0);
            long done = 0;
            boolean copy = false;
            while (done < total) {
                long n = Math.min(total - done, r.nextInt(70_000));
                if (copy) {
                    crc.copyAndUpdate(src, done, into, done, n);
                } else {
                    MemorySegment.copy(src, done, into, done, n);
                    crc.update(into, done, n);
                }
                copy = !copy;
                done += n;
            }
            assertEquals(want, crc.value(), crc.fusesCopy() ? "fused" : "Java");
            assertEquals(-1, into.mismatch(src));
        }
        RunningCrc java = new RunningCrc(null);
        assertFalse(java.fusesCopy());
    }

    @Test
    void badRangesAndReadOnlyDestinationsAreRefusedBeforeAnyNativeCopy() {
        for (CrcKernel k : entries()) {
            RunningCrc fused = new RunningCrc(k);
            MemorySegment src = Arena.ofAuto().allocate(1024);
            MemorySegment dst = Arena.ofAuto().allocate(1024);
            MemorySegment heap = MemorySegment.ofArray(new double[128]);
            assertThrows(IndexOutOfBoundsException.class, () -> fused.copyAndUpdate(src, 1, dst, 0, 1024));
            assertThrows(IndexOutOfBoundsException.class, () -> fused.copyAndUpdate(src, 0, dst, 512, 600));
            assertThrows(IndexOutOfBoundsException.class, () -> fused.copyAndUpdate(src, -1, dst, 0, 10));
            assertThrows(IndexOutOfBoundsException.class, () -> fused.copyAndUpdate(src, 0, dst, 0, -5));
            assertThrows(IndexOutOfBoundsException.class, () -> fused.copyAndUpdate(heap, 8, dst, 0, 1024));
            assertThrows(IndexOutOfBoundsException.class, () -> fused.copyAndUpdate(heap.asSlice(16), 0, dst, 0, 1024));
            assertThrows(IndexOutOfBoundsException.class, () -> fused.update(src, 1000, 25));
            assertThrows(IndexOutOfBoundsException.class, () -> fused.update(heap, 1000, 25));
            MemorySegment readOnly = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(1024).asReadOnlyBuffer());
            assertThrows(IllegalArgumentException.class, () -> fused.copyAndUpdate(src, 0, readOnly, 0, 1024));
            assertEquals(new RunningCrc(null).value(), fused.value(), entry(k) + ": nothing was folded by a refused call");
        }
    }
}

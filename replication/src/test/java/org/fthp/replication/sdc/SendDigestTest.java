package org.fthp.replication.sdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import org.fthp.replication.datatype.BaseType;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.junit.jupiter.api.Test;

class SendDigestTest {

    private static final TypeLayout BYTE = TypeLayout.primitive(BaseType.BYTE);
    private static final TypeLayout DOUBLE = TypeLayout.primitive(BaseType.DOUBLE);

    @Test
    void oneFlippedBitChangesTheHashAndTheSendDigestSeesTheEnvelope() {
        MemorySegment seg = Arena.ofAuto().allocate(64);
        SendDigest a = new SendDigest(true, null);
        SendDigest b = new SendDigest(true, null);
        a.sent(3, 1, 7, seg, 0, 64);
        b.sent(3, 1, 7, seg, 0, 64);
        assertEquals(a.value(), b.value());
        seg.set(ValueLayout.JAVA_BYTE, 17, (byte) 0x10);
        a.sent(3, 1, 7, seg, 0, 64);
        seg.set(ValueLayout.JAVA_BYTE, 17, (byte) 0);
        b.sent(3, 1, 7, seg, 0, 64);
        assertNotEquals(a.value(), b.value());

        SendDigest c = new SendDigest(true, null);
        SendDigest d = new SendDigest(true, null);
        c.sent(3, 1, 7, seg, 0, 64);
        d.sent(3, 2, 7, seg, 0, 64);
        assertNotEquals(c.value(), d.value(), "another destination");
        c.skipNext();
        c.contributed(seg, 0, 64);
        assertEquals(1, c.count(), "a contribution marked uncompared is not folded");
    }

    /** Twins may take different paths for one send (one packs and hashes in blocks, the other hashes a copy). */
    @Test
    void packingInBlocksFoldsWhatFoldingThePackedPayloadDoes() {
        byte[] program = new byte[3 * (int) SendDigest.PACK_BLOCK + 4093];
        new Random(3).nextBytes(program);
        int count = program.length - 5;
        MemorySegment packed = Arena.ofAuto().allocate(program.length + 16);
        MemorySegment whole = Arena.ofAuto().allocate(program.length + 16);
        Packer.pack(UserBuffer.of(program), 5, count, BYTE, whole, 16);

        SendDigest inBlocks = new SendDigest(true, null);
        SendDigest after = new SendDigest(true, null);
        inBlocks.packSent(2, 0, 9, UserBuffer.of(program), 5, count, BYTE, packed, 16);
        after.sent(2, 0, 9, whole, 16, count);
        assertEquals(-1, packed.asSlice(16, count).mismatch(whole.asSlice(16, count)));
        assertEquals(after.value(), inBlocks.value());

        // a strided type: whole items per block, as many bytes folded as packed
        double[] matrix = new double[3 * 20_000];
        for (int i = 0; i < matrix.length; i++) {
            matrix[i] = i * 0.5;
        }
        TypeLayout column = TypeLayout.hvector(20_000, 1, 3 * 8, DOUBLE);
        TypeLayout pair = TypeLayout.resized(TypeLayout.contiguous(2, DOUBLE), 0, 3 * 8);
        MemorySegment out = Arena.ofAuto().allocate(8 * 2 * 20_000);
        MemorySegment ref = Arena.ofAuto().allocate(8 * 2 * 20_000);
        for (TypeLayout t : new TypeLayout[] {column, pair}) {
            int items = t == column ? 1 : 20_000 - 1;
            Packer.pack(UserBuffer.of(matrix), 8, items, t, ref, 0);
            SendDigest x = new SendDigest(true, null);
            SendDigest y = new SendDigest(true, null);
            x.packContributed(UserBuffer.of(matrix), 8, items, t, out, 0);
            y.contributed(ref, 0, items * t.size());
            assertEquals(y.value(), x.value());
            assertEquals(-1, out.asSlice(0, items * t.size()).mismatch(ref.asSlice(0, items * t.size())));
        }
    }

    @Test
    void aPendingFlipGoesIntoThePackedPayloadBeforeTheFold() {
        byte[] program = new byte[2 * (int) SendDigest.PACK_BLOCK + 100];
        new Random(4).nextBytes(program);
        Corruption flip = Corruption.forRank(0, "0:msg:#1", "7", () -> 1);
        SendDigest corrupted = new SendDigest(true, flip);
        SendDigest clean = new SendDigest(true, null);
        MemorySegment a = Arena.ofAuto().allocate(program.length);
        MemorySegment b = Arena.ofAuto().allocate(program.length);
        corrupted.packSent(0, 1, 0, UserBuffer.of(program), 0, program.length, BYTE, a, 0);
        clean.packSent(0, 1, 0, UserBuffer.of(program), 0, program.length, BYTE, b, 0);
        assertNotEquals(-1, a.mismatch(b), "the payload sent is flipped");
        SendDigest ofWhatWasSent = new SendDigest(true, null);
        ofWhatWasSent.sent(0, 1, 0, a, 0, program.length);
        assertEquals(ofWhatWasSent.value(), corrupted.value(), "and hashed as sent");
        assertNotEquals(clean.value(), corrupted.value());
    }

    /**
     * A twin hashing on the fused kernel (by JNI or by FFM downcalls) and one hashing in Java agree: the digest is
     * the JDK's CRC32C of the envelope (communicator, destination, tag, padding, byte count, native order) and the
     * packed payload.
     */
    @Test
    void aDensePackIsHashedAsTheJdksCrc32cOfEnvelopeAndPayload() {
        double[] program = new double[600_001];
        Random r = new Random(9);
        for (int i = 0; i < program.length; i++) {
            program[i] = r.nextDouble();
        }
        int count = program.length - 3;
        CrcKernel ffm = CrcKernel.byDowncalls();
        for (RunningCrc crc : new RunningCrc[] {new RunningCrc(), new RunningCrc(ffm), new RunningCrc(null)}) {
            MemorySegment packed = Arena.ofAuto().allocate(8L * program.length + 40);
            SendDigest digest = new SendDigest(true, null, crc);
            digest.packSent(4, 2, 17, UserBuffer.of(program), 8, count, DOUBLE, packed, 40);
            assertEquals(-1, packed.asSlice(40, 8L * count)
                    .mismatch(MemorySegment.ofArray(program).asSlice(8, 8L * count)));

            java.nio.ByteBuffer envelope = java.nio.ByteBuffer.allocate(24).order(java.nio.ByteOrder.nativeOrder());
            envelope.putInt(0, 4).putInt(4, 2).putInt(8, 17).putLong(16, 8L * count);
            java.util.zip.CRC32C jdk = new java.util.zip.CRC32C();
            jdk.update(envelope);
            jdk.update(packed.asSlice(40, 8L * count).asByteBuffer());
            assertEquals(jdk.getValue(), digest.value(), crc.fusesCopy() ? "fused" : "Java");
        }
    }

    /**
     * Small sends from a direct buffer and from arrays, one digest per path over the same sequence: the kernel's
     * call that folds the envelope with the payload, the downcalls and the JDK's CRC32C give one value.
     */
    @Test
    void smallSendsFromEveryKindOfBufferHashTheSameOnEveryPath() {
        Random r = new Random(13);
        CrcKernel ffm = CrcKernel.byDowncalls();
        RunningCrc[] paths = {new RunningCrc(), new RunningCrc(ffm), new RunningCrc(null)};
        SendDigest[] digests = new SendDigest[paths.length];
        for (int p = 0; p < paths.length; p++) {
            digests[p] = new SendDigest(true, null, paths[p]);
        }
        MemorySegment packed = Arena.ofAuto().allocate(4096 + 40);
        for (int i = 0; i < 300; i++) {
            int n = i < 70 ? i : r.nextInt(4096);
            byte[] bytes = new byte[n];
            r.nextBytes(bytes);
            java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(n);
            direct.put(0, bytes);
            UserBuffer buf = switch (i % 3) {
                case 0 -> UserBuffer.of(bytes);
                case 1 -> UserBuffer.of(direct);
                default -> UserBuffer.of(java.nio.ByteBuffer.wrap(bytes));
            };
            int tag = r.nextInt();
            for (SendDigest d : digests) {
                d.packSent(i, i % 5, tag, buf, 0, n, BYTE, packed, 40);
                assertEquals(-1, packed.asSlice(40, n).mismatch(MemorySegment.ofArray(bytes)), "send " + i);
            }
            assertEquals(digests[2].value(), digests[0].value(), "send " + i + " (" + n + " B)");
            assertEquals(digests[2].value(), digests[1].value(), "send " + i + " (" + n + " B)");
        }
    }
}

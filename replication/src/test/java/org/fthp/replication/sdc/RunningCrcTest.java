package org.fthp.replication.sdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;

class RunningCrcTest {

    @Test
    void foldingPiecesOfNativeAndArrayMemoryIsTheJdksCrc32cOfTheWhole() {
        byte[] bytes = new byte[100_003];
        new Random(7).nextBytes(bytes);
        MemorySegment seg = Arena.ofAuto().allocate(bytes.length);
        MemorySegment.copy(bytes, 0, seg, ValueLayout.JAVA_BYTE, 0, bytes.length);
        CRC32C whole = new CRC32C();
        whole.update(bytes, 0, bytes.length);

        RunningCrc pieces = new RunningCrc();
        pieces.update(seg, 0, 8);
        pieces.update(bytes, 8, 4000);
        pieces.update(seg, 4008, bytes.length - 4008);
        assertEquals(whole.getValue(), pieces.value());
    }

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
}

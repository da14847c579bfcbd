package org.fthp.replication.sdc;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    void anEnvelopeFoldsAsItsTwentyFourBytesInNativeOrderOnEveryPath() {
        Random random = new Random(11);
        // the kernel's form (where it runs, else the JDK's) and the JDK's, each against the JDK's CRC32C
        for (RunningCrc crc : new RunningCrc[] {new RunningCrc(), new RunningCrc(null)}) {
            CRC32C jdk = new CRC32C();
            java.nio.ByteBuffer e = java.nio.ByteBuffer.allocate(24).order(java.nio.ByteOrder.nativeOrder());
            for (int i = 0; i < 200; i++) {
                int a = random.nextInt();
                int b = random.nextInt();
                int c = random.nextInt();
                long len = random.nextLong();
                crc.updateEnvelope(a, b, c, len);
                e.clear();
                e.putInt(0, a).putInt(4, b).putInt(8, c).putInt(12, 0).putLong(16, len);
                jdk.update(e.array(), 0, 24);
                if (i % 3 == 0) {
                    // a contribution's envelope between sends, and a payload between envelopes
                    crc.updateLong(len ^ i);
                    e.putLong(0, len ^ i);
                    jdk.update(e.array(), 0, 8);
                    byte[] payload = new byte[i];
                    random.nextBytes(payload);
                    crc.update(payload, 0, payload.length);
                    jdk.update(payload, 0, payload.length);
                }
                assertEquals(jdk.getValue(), crc.value(), "after envelope " + i);
            }
        }
    }
}

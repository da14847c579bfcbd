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
}

package org.fthp.msglog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.Test;

class SendLogTest {

    private static MemorySegment bytes(int n, int fill) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) fill);
        return MemorySegment.ofArray(b);
    }

    @Test
    void keepsHeaderAndPayloadPerStreamInSendOrder() {
        SendLog log = new SendLog(1 << 20);
        log.record(7, 1, 1, 5, bytes(24, 1), bytes(10, 2));
        log.record(7, 1, 2, 6, bytes(24, 1), null);
        log.record(7, 2, 1, 5, bytes(24, 3), bytes(4, 4));
        assertEquals(24 + 10 + 24 + 28, log.bytes());
        assertEquals(3, log.entries());
        List<SendLog.Entry> after = log.after(7, 1, 1);
        assertEquals(1, after.size());
        assertEquals(2, after.get(0).sendId());
        assertEquals(6, after.get(0).tag());
        SendLog.Entry first = log.after(7, 1, 0).get(0);
        assertEquals(34, first.message().byteSize());
        assertEquals(2, first.message().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 33));
        assertEquals(List.of(), log.after(8, 1, 0), "another communicator's stream is separate");
    }

    @Test
    void trimmingFreesBytesButKeepsThePeak() {
        SendLog log = new SendLog(1 << 20);
        for (int id = 1; id <= 4; id++) {
            log.record(1, 0, id, 0, bytes(24, 0), bytes(76, 0));
        }
        assertEquals(400, log.peakBytes());
        assertEquals(200, log.trimThrough(1, 0, 2));
        assertEquals(200, log.bytes());
        assertEquals(400, log.peakBytes());
        assertEquals(2, log.after(1, 0, 0).size());
        assertEquals(4, log.logged());
    }

    @Test
    void sendIdsMustGrowWithinAStream() {
        SendLog log = new SendLog(1 << 20);
        log.record(1, 0, 5, 0, bytes(24, 0), null);
        assertThrows(IllegalStateException.class, () -> log.record(1, 0, 5, 0, bytes(24, 0), null));
    }

    @Test
    void theLimitEvictsOldestAndCountsIt() {
        SendLog log = new SendLog(250);
        log.record(1, 0, 1, 0, bytes(100, 0), null);
        log.record(1, 1, 1, 0, bytes(100, 0), null);
        log.record(1, 0, 2, 0, bytes(100, 0), null);
        assertEquals(200, log.bytes());
        assertEquals(1, log.evicted());
        assertArrayEquals(new long[] {2}, log.after(1, 0, 0).stream().mapToLong(SendLog.Entry::sendId).toArray());
        assertEquals(1, log.after(1, 1, 0).size());
    }
}

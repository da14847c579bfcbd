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

    /** Counts the log's releases of an adopted message. */
    private static final class Counted implements RetainedMessage {
        int released;

        @Override
        public void release() {
            released++;
        }
    }

    @Test
    void anAdoptedMessageIsNotCopiedAndIsReleasedOnceWhenTrimmed() {
        SendLog log = new SendLog(1 << 20);
        MemorySegment message = java.lang.foreign.Arena.ofAuto().allocate(124);
        Counted memory = new Counted();
        log.adopt(1, 0, 1, 9, message, memory);
        log.record(1, 0, 2, 9, bytes(24, 0), bytes(6, 0));
        assertEquals(154, log.bytes());
        SendLog.Entry e = log.after(1, 0, 0).get(0);
        assertEquals(message.address(), e.message().address(), "the entry is the sender's memory");
        assertEquals(memory, e.retained());
        assertEquals(null, log.after(1, 0, 1).get(0).retained(), "a copied entry has no sender's memory");
        assertEquals(0, memory.released);
        assertEquals(124, log.trimThrough(1, 0, 1));
        assertEquals(1, memory.released);
        log.trimThrough(1, 0, 2);
        assertEquals(1, memory.released);
        assertEquals(0, log.bytes());
        assertEquals(154, log.peakBytes());
    }

    @Test
    void theLimitReleasesAnEvictedAdoptedMessage() {
        SendLog log = new SendLog(250);
        Counted first = new Counted();
        Counted second = new Counted();
        log.adopt(1, 0, 1, 0, java.lang.foreign.Arena.ofAuto().allocate(200), first);
        log.adopt(1, 0, 2, 0, java.lang.foreign.Arena.ofAuto().allocate(200), second);
        assertEquals(1, first.released);
        assertEquals(0, second.released, "the newest entry always stays");
        assertEquals(1, log.evicted());
        assertEquals(200, log.bytes());
    }

    @Test
    void adoptKeepsSendIdOrder() {
        SendLog log = new SendLog(1 << 20);
        log.record(1, 0, 5, 0, bytes(24, 0), null);
        assertThrows(IllegalStateException.class,
                () -> log.adopt(1, 0, 4, 0, java.lang.foreign.Arena.ofAuto().allocate(24), new Counted()));
    }
}

package org.fthp.msglog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

class MessageHeaderTest {

    @Test
    void roundTripsEveryField() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(MessageHeader.BYTES + 3);
            // unaligned on purpose: headers may sit anywhere in a staging segment
            MemorySegment at = seg.asSlice(3);
            MessageHeader.write(at, 0x7ead_beef, 12345, Long.MAX_VALUE - 7, 0b101, 1 << 30);
            assertEquals(0x7ead_beef, MessageHeader.commId(at));
            assertEquals(12345, MessageHeader.logicalSource(at));
            assertEquals(Long.MAX_VALUE - 7, MessageHeader.sendId(at));
            assertEquals(0b101, MessageHeader.flags(at));
            assertEquals(1 << 30, MessageHeader.payloadBytes(at));
        }
    }

    @Test
    void fieldsSitAtTheirOffsetsAsNativeInts() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(MessageHeader.BYTES);
            MessageHeader.write(seg, -2, -3, -4L, -5, 0x8000_0001);
            ValueLayout.OfInt i = ValueLayout.JAVA_INT_UNALIGNED;
            assertEquals(-2, seg.get(i, 0));
            assertEquals(-3, seg.get(i, 4));
            assertEquals(-4L, seg.get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
            assertEquals(-5, seg.get(i, 16));
            assertEquals(0x8000_0001, seg.get(i, 20));
            assertEquals(-3, MessageHeader.logicalSource(seg));
            assertEquals(0x8000_0001, MessageHeader.payloadBytes(seg));
        }
    }

    @Test
    void refusesToWriteOutsideTheSegment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(MessageHeader.BYTES - 1);
            assertThrows(IndexOutOfBoundsException.class, () -> MessageHeader.write(small, 1, 2, 3, 4, 5));
        }
    }

    @Test
    void sendIdsCountPerDestinationFromOne() {
        SendSequence s = new SendSequence(3);
        assertEquals(1, s.next(2));
        assertEquals(2, s.next(2));
        assertEquals(1, s.next(0));
        assertEquals(0, s.last(1));
        assertEquals(2, s.last(2));
    }
}

package org.fthp.replication.structure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ArrivedMessagesTest {

    private static final int ANY_SOURCE = -1;
    private static final int ANY_TAG = -1;

    @Test
    void takesTheOldestMatchWithWildcards() {
        ArrivedMessages m = new ArrivedMessages();
        var a = new ArrivedMessages.Arrival(1, 5, new byte[24]);
        var b = new ArrivedMessages.Arrival(2, 5, new byte[24]);
        var c = new ArrivedMessages.Arrival(1, 7, new byte[24]);
        m.add(a);
        m.add(b);
        m.add(c);
        assertSame(c, m.peek(1, 7, ANY_SOURCE, ANY_TAG));
        assertSame(b, m.take(2, ANY_TAG, ANY_SOURCE, ANY_TAG));
        assertSame(a, m.take(ANY_SOURCE, ANY_TAG, ANY_SOURCE, ANY_TAG));
        assertNull(m.take(1, 5, ANY_SOURCE, ANY_TAG));
        assertSame(c, m.take(1, ANY_TAG, ANY_SOURCE, ANY_TAG));
        assertTrue(m.isEmpty());
        assertNull(m.peek(ANY_SOURCE, ANY_TAG, ANY_SOURCE, ANY_TAG));
    }

    @Test
    void aRepairKeepsEveryArrivalInOrderAsResent() {
        ArrivedMessages before = new ArrivedMessages();
        byte[] header = new byte[24];
        header[0] = 9;
        before.add(new ArrivedMessages.Arrival(1, 5, header));
        before.add(new ArrivedMessages.Arrival(1, 7, new byte[24]));
        ArrivedMessages after = new ArrivedMessages();
        after.carryOver(before);
        assertFalse(after.isEmpty());
        var first = after.peek(1, ANY_TAG, ANY_SOURCE, ANY_TAG);
        assertEquals(5, first.tag());
        assertTrue(first.resent(), "its payload travelled on the abandoned communicators: the sender sends it again");
        assertArrayEquals(header, first.header(), "a probe still reads its count from the header");
        assertEquals(7, after.take(ANY_SOURCE, 7, ANY_SOURCE, ANY_TAG).tag());
        // a second repair before the program received it: still resent, still there
        ArrivedMessages again = new ArrivedMessages();
        again.carryOver(after);
        var kept = again.take(ANY_SOURCE, ANY_TAG, ANY_SOURCE, ANY_TAG);
        assertEquals(5, kept.tag());
        assertTrue(kept.resent());
        assertTrue(again.isEmpty());
        assertFalse(new ArrivedMessages.Arrival(0, 1, new byte[24]).resent(), "a probe's own arrival is not resent");
    }
}

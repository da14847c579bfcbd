package org.fthp.replication.structure;

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
}

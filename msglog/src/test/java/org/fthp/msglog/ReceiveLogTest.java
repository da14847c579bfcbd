package org.fthp.msglog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReceiveLogTest {

    @Test
    void watermarkAdvancesOverOutOfOrderConsumption() {
        ReceiveLog r = new ReceiveLog();
        r.consumed(3, 1, 1);
        r.consumed(3, 1, 3);   // a later tag taken first
        assertEquals(1, r.consumedThrough(3, 1));
        assertTrue(r.hasConsumed(3, 1, 3));
        assertFalse(r.hasConsumed(3, 1, 2));
        r.consumed(3, 1, 2);
        assertEquals(3, r.consumedThrough(3, 1));
        assertEquals(0, r.consumedThrough(3, 2), "streams are per source");
        assertEquals(0, r.consumedThrough(4, 1), "and per communicator");
        assertEquals(3, r.consumed());
    }

    @Test
    void consumingTwiceIsAnError() {
        ReceiveLog r = new ReceiveLog();
        r.consumed(1, 0, 1);
        assertThrows(IllegalStateException.class, () -> r.consumed(1, 0, 1));
        r.consumed(1, 0, 5);
        assertThrows(IllegalStateException.class, () -> r.consumed(1, 0, 5));
    }
}

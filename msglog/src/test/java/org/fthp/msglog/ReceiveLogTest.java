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

    @Test
    void interleavedStreamsKeepTheirOwnWatermarks() {
        ReceiveLog r = new ReceiveLog();
        for (long id = 1; id <= 5; id++) {
            r.consumed(1, 0, id);
            r.consumed(1, 1, id * 2);   // every other id: the odd ones stay missing
            r.consumed(2, 0, id);
        }
        assertEquals(5, r.consumedThrough(1, 0));
        assertEquals(0, r.consumedThrough(1, 1));
        assertEquals(5, r.consumedAbove(1, 1).length);
        assertEquals(5, r.consumedThrough(2, 0));
        r.consumed(1, 1, 1);
        assertEquals(2, r.consumedThrough(1, 1), "an in-order id still folds the ones above it");
        assertThrows(IllegalStateException.class, () -> r.consumed(1, 0, 5));
        assertEquals(16, r.consumed());
    }
}

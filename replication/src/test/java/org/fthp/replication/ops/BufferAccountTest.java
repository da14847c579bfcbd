package org.fthp.replication.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BufferAccountTest {

    @Test
    void chargesHoldRoomUntilTheirSendsAreDone() {
        BufferAccount account = new BufferAccount(1000);
        boolean[] firstDone = {false};
        boolean[] secondDone = {false};
        assertTrue(account.hasRoomFor(600));
        account.charge(600, () -> firstDone[0]);
        assertFalse(account.hasRoomFor(500), "600 of 1000 in use");
        assertTrue(account.hasRoomFor(400), "exactly the rest fits");
        account.charge(400, () -> secondDone[0]);
        assertEquals(1000, account.used());
        assertFalse(account.drained());

        secondDone[0] = true;   // completions may come in any order
        assertTrue(account.hasRoomFor(400));
        assertEquals(600, account.used());
        assertFalse(account.drained());
        firstDone[0] = true;
        assertTrue(account.drained());
        assertEquals(0, account.used());
        assertTrue(account.hasRoomFor(1000));
        assertFalse(account.hasRoomFor(1001), "never more than the whole buffer");
    }

    @Test
    void anEmptyAccountIsDrainedAndANegativeOneRefused() {
        assertTrue(new BufferAccount(0).drained());
        assertFalse(new BufferAccount(0).hasRoomFor(1));
        assertThrows(IllegalArgumentException.class, () -> new BufferAccount(-1));
    }
}

package org.fthp.replication.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How the engine's native ranks number in each generation's control communicator. */
class ControlCommTest {

    @Test
    void theLaunchsDuplicateNumbersAsTheNativeWorld() {
        ControlComm c = ControlComm.ofWorld(42);
        assertTrue(c.exists());
        assertEquals(42, c.handle());
        assertEquals(5, c.rank(5));
        assertEquals(5, c.nativeRank(5));
        assertFalse(ControlComm.NONE.exists());
    }

    @Test
    void aGenerationsNumbersItsCopiesInTheOrderItWasMadeWith() {
        // 2 ranks + 2 replicas and a spare (native 4) that took rank 1, whose copies (1, 3) died
        ControlComm c = ControlComm.ofGroup(7, new int[] {0, 4, 2}, 5);
        assertEquals(0, c.rank(0));
        assertEquals(1, c.rank(4));
        assertEquals(2, c.rank(2));
        assertEquals(4, c.nativeRank(1));
        assertEquals(2, c.nativeRank(2));
    }

    @Test
    void aGenerationsSpansExactlyItsCopiesInTheirOrder() {
        // a rollback generation's eworld is a duplicate of its control communicator when this holds
        ControlComm c = ControlComm.ofGroup(7, new int[] {0, 4, 2}, 5);
        assertTrue(c.spans(new int[] {0, 4, 2}));
        assertFalse(c.spans(new int[] {0, 2, 4}), "another order");
        assertFalse(c.spans(new int[] {0, 4}), "fewer copies");
        assertFalse(c.spans(new int[] {0, 4, 2, 3}), "more copies");
        // the launch's duplicate of the native world also holds the spares: never taken for an eworld
        assertFalse(ControlComm.ofWorld(42).spans(new int[] {0, 1, 2}));
        assertFalse(ControlComm.NONE.spans(new int[] {0}));
    }

    @Test
    void aProcessOutsideTheGenerationIsNeverAddressed() {
        ControlComm c = ControlComm.ofGroup(7, new int[] {0, 4, 2}, 5);
        assertThrows(IllegalStateException.class, () -> c.rank(1), "dead before the generation");
        assertThrows(IllegalStateException.class, () -> c.rank(9), "beyond the native world");
        assertThrows(IllegalArgumentException.class, () -> ControlComm.ofGroup(7, new int[] {0, 0}, 5));
    }
}

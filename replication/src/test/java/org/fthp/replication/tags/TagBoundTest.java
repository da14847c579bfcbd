package org.fthp.replication.tags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.replication.twins.TwinSlots;
import org.junit.jupiter.api.Test;

class TagBoundTest {

    @Test
    void openMpisBoundLeavesTheWholeLayout() {
        TagBound b = TagBound.of(Integer.MAX_VALUE);
        assertEquals((1 << 30) - 1, b.userTagUb());
        assertEquals(InternalTags.TWIN_SLOTS, b.twinSlots());
    }

    @Test
    void mpichsBoundCapsTheProgramsTagsAndTheTwinSlots() {
        int mpich = (1 << 28) - 1;
        TagBound b = TagBound.of(mpich);
        assertEquals(mpich, b.userTagUb());
        assertEquals(256, b.twinSlots());
        // the largest twin tag of the last usable slot is the bound itself
        assertEquals(mpich, InternalTags.twinDecision(b.twinSlots() - 1, -1));
    }

    @Test
    void aBoundBelowTheEnginesTagsIsRefusedWithTheRangeNamed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TagBound.of(32767));
        assertTrue(e.getMessage().contains("32767"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> TagBound.of((2 << InternalTags.TWIN_DECISION_BITS) - 2),
                "one slot (COMM_WORLD's) is not enough");
    }

    @Test
    void twinSlotsStopAtTheirCapacity() {
        TwinSlots slots = new TwinSlots(3);
        assertEquals(1, slots.take());
        assertEquals(2, slots.take());
        IllegalStateException e = assertThrows(IllegalStateException.class, slots::take);
        assertTrue(e.getMessage().contains("more than 2"), e.getMessage());
        slots.release(1);
        assertEquals(1, slots.take());
    }
}

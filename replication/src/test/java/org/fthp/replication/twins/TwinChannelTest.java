package org.fthp.replication.twins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.fthp.replication.twins.TwinChannel;
import org.fthp.replication.twins.TwinSlots;
import org.junit.jupiter.api.Test;

class TwinChannelTest {

    @Test
    void communicatorsSharingTheChannelNeverShareATag() {
        Set<Integer> seen = new HashSet<>();
        TwinChannel world = new TwinChannel(7, 3, 0);
        for (int slot = 0; slot < 64; slot++) {
            TwinChannel c = world.withSlot(slot);
            for (int decision = 0; decision < 300; decision++) {
                int tag = c.wireTag(decision);
                assertTrue(tag >= 0 && tag < (1 << 30), "tag " + tag + " within the tag bound");
                assertTrue(seen.add(tag), "slot " + slot + " decision " + decision + " reuses a tag");
            }
        }
    }

    @Test
    void decisionNumbersWrapWithinTheirSlot() {
        TwinChannel c = new TwinChannel(7, 3, 5);
        assertEquals(c.wireTag(12), c.wireTag(12 + (1 << org.fthp.replication.tags.InternalTags.TWIN_DECISION_BITS)));
        assertNotEquals(c.wireTag(12), c.withSlot(6).wireTag(12));
        assertEquals(c.withSlot(TwinChannel.SLOTS - 1).wireTag(0x3fffffff) >>> 30, 0, "largest tag below 2^30");
    }

    @Test
    void slotsOutsideTheTagSpaceAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TwinChannel(7, 3, TwinChannel.SLOTS));
        assertThrows(IllegalArgumentException.class, () -> new TwinChannel(7, 3, -1));
    }

    @Test
    void twinsFreeingAndCreatingAlikeTakeTheSameSlots() {
        TwinSlots cmp = new TwinSlots();
        TwinSlots rep = new TwinSlots();
        int[] ops = {1, 1, 1, -2, 1, -1, 1, 1, -3, 1};
        int[] heldCmp = new int[16];
        int[] heldRep = new int[16];
        int n = 0;
        for (int op : ops) {
            if (op > 0) {
                heldCmp[n] = cmp.take();
                heldRep[n] = rep.take();
                assertTrue(heldCmp[n] > 0, "slot 0 is COMM_WORLD's");
                assertEquals(heldCmp[n], heldRep[n]);
                n++;
            } else {
                cmp.release(heldCmp[-op]);
                rep.release(heldRep[-op]);
            }
        }
    }

    @Test
    void tooManyLiveCommunicatorsIsAnErrorNotACollision() {
        TwinSlots slots = new TwinSlots();
        for (int i = 1; i < TwinChannel.SLOTS; i++) {
            slots.take();
        }
        assertThrows(IllegalStateException.class, slots::take);
        slots.release(17);
        assertEquals(17, slots.take());
    }
}

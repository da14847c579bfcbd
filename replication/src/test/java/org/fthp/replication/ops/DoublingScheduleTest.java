package org.fthp.replication.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;

import org.junit.jupiter.api.Test;

class DoublingScheduleTest {

    /** Every rank ends with every rank's contribution, whatever the size: the schedule is simulated on bit sets. */
    @Test
    void everyRankEndsWithEveryContribution() {
        for (int size = 1; size <= 33; size++) {
            BitSet[] has = new BitSet[size];
            for (int r = 0; r < size; r++) {
                has[r] = new BitSet();
                has[r].set(r);
            }
            // fold in: an even rank below twice the surplus gives its value to the odd rank after it
            for (int r = 0; r < size; r++) {
                if (DoublingSchedule.foldsIn(r, size)) {
                    assertTrue(DoublingSchedule.foldsOut(r - 1, size), "size " + size + ": " + r + "'s giver");
                    has[r].or(has[r - 1]);
                }
            }
            for (int step = 1; step <= DoublingSchedule.steps(size); step++) {
                BitSet[] next = new BitSet[size];
                for (int r = 0; r < size; r++) {
                    next[r] = (BitSet) has[r].clone();
                    if (DoublingSchedule.foldsOut(r, size)) {
                        continue;
                    }
                    int peer = DoublingSchedule.partner(r, size, step);
                    assertNotEquals(r, peer, "size " + size + " step " + step);
                    assertFalse(DoublingSchedule.foldsOut(peer, size),
                            "size " + size + ": " + r + " pairs with a folded rank");
                    assertEquals(r, DoublingSchedule.partner(peer, size, step), "size " + size + ": pairs are mutual");
                    next[r].or(has[peer]);
                }
                has = next;
            }
            // hand back: the folded-out rank gets its odd neighbour's result
            for (int r = 0; r < size; r++) {
                if (DoublingSchedule.foldsOut(r, size)) {
                    has[r] = (BitSet) has[r + 1].clone();
                }
            }
            for (int r = 0; r < size; r++) {
                assertEquals(size, has[r].cardinality(), "size " + size + ": rank " + r + " has " + has[r]);
            }
        }
    }

    @Test
    void tagsOfOneAllreduceStayInItsRange() {
        int base = DoublingSchedule.tagBase(7);
        assertTrue(DoublingSchedule.stepTag(base, 1) > base);
        // 2^30 ranks take 30 steps; the result tag is the range's last, above every step
        assertTrue(DoublingSchedule.resultTag(base) > DoublingSchedule.stepTag(base, 30));
        assertNotEquals(base, DoublingSchedule.tagBase(8));
    }
}

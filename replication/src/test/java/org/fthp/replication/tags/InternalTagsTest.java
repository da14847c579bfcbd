package org.fthp.replication.tags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fthp.replication.tags.InternalTags.Range;
import org.junit.jupiter.api.Test;

class InternalTagsTest {

    @Test
    void rangesSharingACommunicatorAreDisjoint() {
        List<Range> all = InternalTags.ALL;
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                Range a = all.get(i);
                Range b = all.get(j);
                if (a.space() == b.space()) {
                    assertFalse(a.first() <= b.last() && b.first() <= a.last(),
                            a.name() + " " + a.first() + ".." + a.last() + " overlaps " + b.name() + " " + b.first()
                                    + ".." + b.last());
                }
            }
        }
    }

    @Test
    void everyTagIsNonNegativeAndBelowTheLimit() {
        for (Range r : InternalTags.ALL) {
            assertTrue(r.first() >= 0, r.name());
            assertTrue(r.last() < InternalTags.LIMIT, r.name() + " ends at " + r.last());
        }
    }

    @Test
    void everyRangeIsListed() throws IllegalAccessException {
        int ranges = 0;
        for (var f : InternalTags.class.getFields()) {
            if (f.getType() == Range.class) {
                ranges++;
                assertTrue(InternalTags.ALL.contains((Range) f.get(null)), f.getName() + " is not in ALL");
            }
        }
        assertEquals(ranges, InternalTags.ALL.size());
    }

    @Test
    void numberedMessagesWrapInsideTheirRange() {
        Range r = InternalTags.REPAIR_AGREE;
        assertEquals(r.first() + 5, r.tag(5));
        assertEquals(r.first() + 5, r.tag(r.size() + 5L));
        assertEquals(r.last(), r.tag(-1));
    }

    @Test
    void allreduceStepsStayInsideTheirRange() {
        for (long seq : new long[] {0, 1, 1023, 1024, Long.MAX_VALUE}) {
            int base = InternalTags.allreduceBase(seq);
            assertTrue(base >= InternalTags.ALLREDUCE.first());
            assertTrue(base + InternalTags.ALLREDUCE_STEPS - 1 <= InternalTags.ALLREDUCE.last());
        }
    }

    @Test
    void twinDecisionsOfTheHighestSlotStayInsideTheirRange() {
        int tag = InternalTags.twinDecision(InternalTags.TWIN_SLOTS - 1, -1);
        assertTrue(tag >= 0 && tag <= InternalTags.TWIN_DECISIONS.last());
    }

    @Test
    void payloadTagsAreTheHeadersOwn() {
        assertEquals(InternalTags.PAYLOAD.tag(7), org.fthp.msglog.MessageHeader.payloadTag(7));
        assertEquals(InternalTags.PAYLOAD.tag(1L << 40 | 9), org.fthp.msglog.MessageHeader.payloadTag(1L << 40 | 9));
    }

    @Test
    void aSizeThatIsNotAPowerOfTwoIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Range("x", InternalTags.Space.CONTROL, 0, 3));
    }
}

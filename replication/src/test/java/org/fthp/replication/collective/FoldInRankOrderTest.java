package org.fthp.replication.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class FoldInRankOrderTest {

    /** {@code inout = 2·in + inout}: neither commutative nor associative, so any other bracketing shows. */
    private static final Combine TWICE_PLUS = (in, inout, count) -> {
        for (int i = 0; i < count; i++) {
            int a = in.getAtIndex(ValueLayout.JAVA_INT, i);
            int b = inout.getAtIndex(ValueLayout.JAVA_INT, i);
            inout.setAtIndex(ValueLayout.JAVA_INT, i, 2 * a + b);
        }
    };

    /** Four ranks' contributions of two ints each, packed one after the other. */
    private static MemorySegment contributions(Arena arena) {
        return arena.allocateFrom(ValueLayout.JAVA_INT, 1, 10, 2, 20, 3, 30, 4, 40);
    }

    @Test
    void combinesFromTheRightInRankOrder() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment all = contributions(arena);
            MemorySegment acc = Reductions.foldInRankOrder(all, 0, 4, 8, 2, TWICE_PLUS);
            // x0 op (x1 op (x2 op x3)) = 2·1 + (2·2 + (2·3 + 4)) = 16; and 2·10 + (2·20 + (2·30 + 40)) = 160
            assertArrayEquals(new int[] {16, 160}, acc.toArray(ValueLayout.JAVA_INT));
            assertArrayEquals(new int[] {1, 10, 2, 20, 3, 30, 4, 40}, all.toArray(ValueLayout.JAVA_INT),
                    "the contributions are left as they came");
        }
    }

    @Test
    void aPrefixStopsAtItsLastRank() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment all = contributions(arena);
            // an inclusive scan at rank 1: x0 op x1
            assertArrayEquals(new int[] {4, 40},
                    Reductions.foldInRankOrder(all, 0, 2, 8, 2, TWICE_PLUS).toArray(ValueLayout.JAVA_INT));
            // one contribution is the result as it is
            assertArrayEquals(new int[] {1, 10},
                    Reductions.foldInRankOrder(all, 0, 1, 8, 2, TWICE_PLUS).toArray(ValueLayout.JAVA_INT));
        }
    }

    @Test
    void theOperationSeesEachBlockWithTheItemCount() {
        List<Integer> counts = new ArrayList<>();
        List<Integer> firsts = new ArrayList<>();
        Combine spy = (in, inout, count) -> {
            counts.add(count);
            firsts.add(in.get(ValueLayout.JAVA_INT, 0));
        };
        try (Arena arena = Arena.ofConfined()) {
            Reductions.foldInRankOrder(contributions(arena), 0, 4, 8, 2, spy);
        }
        assertEquals(List.of(2, 2, 2), counts);
        assertEquals(List.of(3, 2, 1), firsts, "rank n-2 first, rank 0 last");
    }
}

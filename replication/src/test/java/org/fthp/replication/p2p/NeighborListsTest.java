package org.fthp.replication.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.topology.CartTopology;
import org.junit.jupiter.api.Test;

class NeighborListsTest {

    private static final int PROC_NULL = -2;

    /**
     * Every message a process sends to a neighbour finds exactly one receive
     * posted there for it: from that process, with the same tag.
     */
    private static void everyEdgeMatchesOneReceive(CartTopology grid) {
        NeighborLists[] lists = new NeighborLists[grid.size()];
        for (int r = 0; r < grid.size(); r++) {
            lists[r] = NeighborLists.cartesian(grid, r, PROC_NULL);
        }
        for (int r = 0; r < grid.size(); r++) {
            NeighborLists l = lists[r];
            for (int k = 0; k < l.out().length; k++) {
                int dest = l.out()[k];
                if (dest == PROC_NULL) {
                    continue;
                }
                NeighborLists there = lists[dest];
                int matches = 0;
                for (int j = 0; j < there.in().length; j++) {
                    if (there.in()[j] == r && there.inTags()[j] == l.outTags()[k]) {
                        matches++;
                    }
                }
                assertEquals(1, matches, "rank " + r + " edge " + k + " to " + dest);
            }
        }
    }

    @Test
    void cartesianEdgesPairUpEvenWhenBothNeighboursAreOneProcess() {
        // two ranks in a periodic ring: each is the other's -1 and +1 neighbour; the tags keep the two apart
        everyEdgeMatchesOneReceive(new CartTopology(new int[] {2}, new boolean[] {true}));
        everyEdgeMatchesOneReceive(new CartTopology(new int[] {3, 4}, new boolean[] {true, false}));
        everyEdgeMatchesOneReceive(new CartTopology(new int[] {2, 2, 2}, new boolean[] {true, true, true}));
    }

    @Test
    void cartesianListsFollowTheStandardsOrder() {
        CartTopology grid = new CartTopology(new int[] {3, 4}, new boolean[] {false, false});
        NeighborLists l = NeighborLists.cartesian(grid, 5, PROC_NULL);   // coords (1, 1)
        // per dimension: the -1 neighbour, then the +1 neighbour
        assertArrayEquals(new int[] {1, 9, 4, 6}, l.in());
        assertArrayEquals(l.in(), l.out());
        NeighborLists corner = NeighborLists.cartesian(grid, 0, PROC_NULL);
        assertArrayEquals(new int[] {PROC_NULL, 4, PROC_NULL, 1}, corner.out());
    }

    @Test
    void graphEdgesAllCarryTheBaseTag() {
        NeighborLists l = NeighborLists.graph(new int[] {1, 2}, new int[] {3});
        assertArrayEquals(new int[] {NeighborLists.TAG_BASE, NeighborLists.TAG_BASE}, l.inTags());
        assertArrayEquals(new int[] {NeighborLists.TAG_BASE}, l.outTags());
    }

    private static boolean inNeighbourRange(int tag) {
        InternalTags.Range r = InternalTags.NEIGHBOURS;
        return tag >= r.first() && tag < r.first() + r.size();
    }

    @Test
    void tagsStayInTheNeighbourhoodRange() {
        CartTopology grid = new CartTopology(new int[] {2, 2, 2, 2}, new boolean[] {true, true, true, true});
        NeighborLists l = NeighborLists.cartesian(grid, 3, PROC_NULL);
        for (int tag : l.outTags()) {
            assertTrue(inNeighbourRange(tag), "tag " + tag);
        }
        for (int tag : l.inTags()) {
            assertTrue(inNeighbourRange(tag), "tag " + tag);
        }
    }
}

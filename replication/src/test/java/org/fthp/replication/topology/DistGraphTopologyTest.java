package org.fthp.replication.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DistGraphTopologyTest {

    @Test
    void adjacentUnweighted() {
        DistGraphTopology t = new DistGraphTopology(new int[] {1, 2}, null, new int[] {3}, null, 4);
        assertFalse(t.isWeighted());
        assertEquals(2, t.inDegree());
        assertEquals(1, t.outDegree());
        assertArrayEquals(new int[] {1, 2}, t.sources());
        assertArrayEquals(new int[] {3}, t.destinations());
        assertNull(t.sourceWeights());
        assertNull(t.destWeights());
    }

    @Test
    void adjacentWeightedKeepsTheGivenOrder() {
        DistGraphTopology t = new DistGraphTopology(new int[] {2, 0}, new int[] {5, 6},
                new int[] {1, 1}, new int[] {7, 8, 99}, 3);
        assertTrue(t.isWeighted());
        assertArrayEquals(new int[] {2, 0}, t.sources());
        assertArrayEquals(new int[] {5, 6}, t.sourceWeights());
        assertArrayEquals(new int[] {7, 8}, t.destWeights()); // cut to the neighbour count
    }

    @Test
    void adjacentWeightedWithAnEmptySideMayOmitItsWeights() {
        DistGraphTopology t = new DistGraphTopology(new int[0], null, new int[] {1}, new int[] {4}, 2);
        assertTrue(t.isWeighted());
        assertArrayEquals(new int[0], t.sourceWeights());
    }

    @Test
    void adjacentValidation() {
        assertThrows(IllegalArgumentException.class,
                () -> new DistGraphTopology(new int[] {4}, null, new int[0], null, 4));
        assertThrows(IllegalArgumentException.class,
                () -> new DistGraphTopology(new int[] {0}, new int[] {1}, new int[] {1}, null, 4));
        assertThrows(IllegalArgumentException.class,
                () -> new DistGraphTopology(new int[] {0, 1}, new int[] {1}, new int[0], null, 4));
        assertThrows(IllegalArgumentException.class,
                () -> new DistGraphTopology(null, null, new int[0], null, 4));
    }

    /**
     * A 3-process ring 0->1->2->0 where process 0 describes all edges
     * (two of them from one source entry) and the others contribute nothing.
     */
    @Test
    void generalFormOneProcessDescribesEverything() {
        int[][] sources = {{0, 1, 2}, {}, {}};
        int[][] degrees = {{1, 1, 1}, {}, {}};
        int[][] destinations = {{1, 2, 0}, {}, {}};
        int[][] weights = {null, null, null};
        for (int rank = 0; rank < 3; rank++) {
            DistGraphTopology t = DistGraphTopology.fromContributions(rank, 3, sources, degrees, destinations,
                    weights);
            assertFalse(t.isWeighted());
            assertArrayEquals(new int[] {(rank + 2) % 3}, t.sources());
            assertArrayEquals(new int[] {(rank + 1) % 3}, t.destinations());
        }
    }

    @Test
    void generalFormOrdersByContributingRankThenArrayOrder() {
        // Process 2 contributes 2->0 and 1->0; process 0 contributes 0->0 (self loop) and 0->1;
        // process 1 contributes 1->0 again (duplicates are kept).
        int[][] sources = {{0}, {1}, {2, 1}};
        int[][] degrees = {{2}, {1}, {1, 1}};
        int[][] destinations = {{0, 1}, {0}, {0, 0}};
        int[][] weights = {{10, 11}, {20}, {30, 31}};
        DistGraphTopology t = DistGraphTopology.fromContributions(0, 3, sources, degrees, destinations, weights);
        assertTrue(t.isWeighted());
        assertArrayEquals(new int[] {0, 1, 2, 1}, t.sources());
        assertArrayEquals(new int[] {10, 20, 30, 31}, t.sourceWeights());
        assertArrayEquals(new int[] {0, 1}, t.destinations());
        assertArrayEquals(new int[] {10, 11}, t.destWeights());

        DistGraphTopology one = DistGraphTopology.fromContributions(1, 3, sources, degrees, destinations, weights);
        assertArrayEquals(new int[] {0}, one.sources());
        assertArrayEquals(new int[] {11}, one.sourceWeights());
        assertArrayEquals(new int[] {0, 0}, one.destinations());
        assertArrayEquals(new int[] {20, 31}, one.destWeights());
    }

    @Test
    void zeroDegreeSourcesAndEdgelessWeightedContributorsAreFine() {
        int[][] sources = {{0, 1}, {}};
        int[][] degrees = {{0, 1}, {}};
        int[][] destinations = {{0}, {}};
        int[][] weights = {{5}, new int[0]};
        DistGraphTopology t = DistGraphTopology.fromContributions(0, 2, sources, degrees, destinations, weights);
        assertTrue(t.isWeighted());
        assertArrayEquals(new int[] {1}, t.sources());
        assertArrayEquals(new int[] {5}, t.sourceWeights());
        assertArrayEquals(new int[0], t.destinations());

        // An edgeless process passing an empty array does not make an unweighted graph weighted.
        int[][] unweighted = {null, new int[0]};
        assertFalse(DistGraphTopology.fromContributions(0, 2, sources, degrees, destinations, unweighted)
                .isWeighted());
    }

    @Test
    void generalFormValidation() {
        int[][] none = {{}, {}};
        assertThrows(IllegalArgumentException.class, () -> DistGraphTopology.fromContributions(0, 3,
                none, none, none, new int[2][]));
        assertThrows(IllegalArgumentException.class, () -> DistGraphTopology.fromContributions(2, 2,
                none, none, none, new int[2][]));
        // mixed weighted / unweighted edges
        assertThrows(IllegalArgumentException.class, () -> DistGraphTopology.fromContributions(0, 2,
                new int[][] {{0}, {1}}, new int[][] {{1}, {1}}, new int[][] {{1}, {0}},
                new int[][] {{3}, null}));
        // degrees promise more destinations than given
        assertThrows(IllegalArgumentException.class, () -> DistGraphTopology.fromContributions(0, 2,
                new int[][] {{0}, {}}, new int[][] {{2}, {}}, new int[][] {{1}, {}}, new int[2][]));
        // destination out of range
        assertThrows(IllegalArgumentException.class, () -> DistGraphTopology.fromContributions(0, 2,
                new int[][] {{0}, {}}, new int[][] {{1}, {}}, new int[][] {{2}, {}}, new int[2][]));
        // negative degree
        assertThrows(IllegalArgumentException.class, () -> DistGraphTopology.fromContributions(0, 2,
                new int[][] {{0}, {}}, new int[][] {{-1}, {}}, new int[][] {{}, {}}, new int[2][]));
        // too few weights
        assertThrows(IllegalArgumentException.class, () -> DistGraphTopology.fromContributions(0, 2,
                new int[][] {{0}, {}}, new int[][] {{2}, {}}, new int[][] {{1, 1}, {}},
                new int[][] {{1}, null}));
    }
}

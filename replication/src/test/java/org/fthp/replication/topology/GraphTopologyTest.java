package org.fthp.replication.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GraphTopologyTest {

    // The MPI standard's example: 4 nodes, 0:{1,3} 1:{0} 2:{3} 3:{0,2}
    private static final int[] INDEX = {2, 3, 4, 6};
    private static final int[] EDGES = {1, 3, 0, 3, 0, 2};

    @Test
    void neighboursFollowTheIndexArray() {
        GraphTopology g = new GraphTopology(INDEX, EDGES);
        assertEquals(4, g.nodes());
        assertEquals(6, g.edgeCount());
        assertArrayEquals(new int[] {1, 3}, g.neighbors(0));
        assertArrayEquals(new int[] {0}, g.neighbors(1));
        assertArrayEquals(new int[] {3}, g.neighbors(2));
        assertArrayEquals(new int[] {0, 2}, g.neighbors(3));
        assertEquals(2, g.neighborCount(0));
        assertEquals(1, g.neighborCount(1));
        assertEquals(2, g.neighborCount(3));
    }

    @Test
    void isolatedNodesSelfLoopsAndDuplicatesAreAllowed() {
        GraphTopology g = new GraphTopology(new int[] {0, 3, 3}, new int[] {1, 1, 2});
        assertArrayEquals(new int[0], g.neighbors(0));
        assertArrayEquals(new int[] {1, 1, 2}, g.neighbors(1));
        assertEquals(0, g.neighborCount(2));
    }

    @Test
    void extraEdgesBeyondTheIndexAreIgnored() {
        GraphTopology g = new GraphTopology(new int[] {1, 2}, new int[] {1, 0, 99});
        assertArrayEquals(new int[] {1, 0}, g.edges());
    }

    @Test
    void emptyGraph() {
        GraphTopology g = new GraphTopology(new int[0], new int[0]);
        assertEquals(0, g.nodes());
        assertThrows(IllegalArgumentException.class, () -> g.neighbors(0));
    }

    @Test
    void invalidGraphsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new GraphTopology(new int[] {2, 1}, new int[] {0, 1}));
        assertThrows(IllegalArgumentException.class, () -> new GraphTopology(new int[] {-1, 1}, new int[] {0}));
        assertThrows(IllegalArgumentException.class, () -> new GraphTopology(new int[] {1, 3}, new int[] {0, 1}));
        assertThrows(IllegalArgumentException.class, () -> new GraphTopology(new int[] {1, 2}, new int[] {0, 2}));
        assertThrows(IllegalArgumentException.class, () -> new GraphTopology(new int[] {1, 2}, new int[] {-1, 0}));
        assertThrows(IllegalArgumentException.class, () -> new GraphTopology(null, new int[0]));
        GraphTopology g = new GraphTopology(INDEX, EDGES);
        assertThrows(IllegalArgumentException.class, () -> g.neighbors(4));
        assertThrows(IllegalArgumentException.class, () -> g.neighborCount(-1));
    }

    @Test
    void graphIsImmutable() {
        int[] index = INDEX.clone();
        int[] edges = EDGES.clone();
        GraphTopology g = new GraphTopology(index, edges);
        index[0] = 0;
        edges[0] = 2;
        g.edges()[1] = 2;
        assertArrayEquals(INDEX, g.index());
        assertArrayEquals(EDGES, g.edges());
    }
}

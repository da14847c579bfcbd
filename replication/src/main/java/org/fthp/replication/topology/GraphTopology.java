package org.fthp.replication.topology;

import java.util.Arrays;

/**
 * A general graph topology in MPI_Graph_create's compressed form: node i's
 * neighbours are {@code edges[index[i-1] .. index[i])} (with index[-1] = 0).
 * Self-loops and repeated edges are allowed, as in MPI.
 */
public final class GraphTopology {

    private final int[] index;
    private final int[] edges;

    /**
     * @param index cumulative neighbour counts, one entry per node
     * @param edges neighbour lists, concatenated; only the first
     *              {@code index[nodes-1]} entries are used (the C binding reads
     *              no further, so longer arrays that work under Open MPI keep working)
     */
    public GraphTopology(int[] index, int[] edges) {
        if (index == null || edges == null) {
            throw new IllegalArgumentException("index and edges must not be null");
        }
        int previous = 0;
        for (int i = 0; i < index.length; i++) {
            if (index[i] < previous) {
                throw new IllegalArgumentException("index must be non-decreasing and non-negative: "
                        + Arrays.toString(index));
            }
            previous = index[i];
        }
        int edgeCount = previous;
        if (edges.length < edgeCount) {
            throw new IllegalArgumentException("index promises " + edgeCount + " edges but only "
                    + edges.length + " were given");
        }
        for (int e = 0; e < edgeCount; e++) {
            if (edges[e] < 0 || edges[e] >= index.length) {
                throw new IllegalArgumentException("edge target " + edges[e] + " out of range [0,"
                        + index.length + ")");
            }
        }
        this.index = index.clone();
        this.edges = Arrays.copyOf(edges, edgeCount);
    }

    /** Number of nodes (processes) in the graph. */
    public int nodes() {
        return index.length;
    }

    /** Total number of edge entries (MPI_Graphdims_get's nedges). */
    public int edgeCount() {
        return edges.length;
    }

    public int[] index() {
        return index.clone();
    }

    public int[] edges() {
        return edges.clone();
    }

    /** MPI_Graph_neighbors_count. */
    public int neighborCount(int rank) {
        checkRank(rank);
        return index[rank] - start(rank);
    }

    /** MPI_Graph_neighbors, in the order the edges were given. */
    public int[] neighbors(int rank) {
        checkRank(rank);
        return Arrays.copyOfRange(edges, start(rank), index[rank]);
    }

    private int start(int rank) {
        return rank == 0 ? 0 : index[rank - 1];
    }

    private void checkRank(int rank) {
        if (rank < 0 || rank >= index.length) {
            throw new IllegalArgumentException("rank " + rank + " out of range [0," + index.length + ")");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GraphTopology other
                && Arrays.equals(index, other.index) && Arrays.equals(edges, other.edges);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(index) + Arrays.hashCode(edges);
    }

    @Override
    public String toString() {
        return "GraphTopology{index=" + Arrays.toString(index) + ", edges=" + Arrays.toString(edges) + "}";
    }
}

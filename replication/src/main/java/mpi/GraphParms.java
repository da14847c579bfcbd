package mpi;

/** A graph communicator's topology in MPI's index/edges form (GraphComm.getDims). */
public final class GraphParms {

    private final int[] index;
    private final int[] edges;

    protected GraphParms(int[] index, int[] edges) {
        this.index = index.clone();
        this.edges = edges.clone();
    }

    /** Number of nodes. */
    public int getIndexCount() {
        return index.length;
    }

    /** Cumulative neighbour count up to and including node i. */
    public int getIndex(int i) {
        return index[i];
    }

    /** Total number of edge entries. */
    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int i) {
        return edges[i];
    }
}

package mpi;

/** This process's in- and out-neighbours in a distributed graph (GraphComm.getDistGraphNeighbors). */
public final class DistGraphNeighbors {

    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    /** Weight arrays may be null when the graph is unweighted. */
    protected DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
            boolean weighted) {
        this.sources = sources.clone();
        this.sourceWeights = sourceWeights == null ? null : sourceWeights.clone();
        this.destinations = destinations.clone();
        this.destWeights = destWeights == null ? null : destWeights.clone();
        this.weighted = weighted;
    }

    public int getInDegree() {
        return sources.length;
    }

    public int getOutDegree() {
        return destinations.length;
    }

    /** False if the graph was created unweighted (MPI_UNWEIGHTED). */
    public boolean isWeighted() {
        return weighted;
    }

    public int getSource(int i) {
        return sources[i];
    }

    /**
     * Weight of the i-th in-edge; 0 for an unweighted graph, where weights carry
     * no meaning (Open MPI's binding leaves its fresh array untouched then).
     */
    public int getSourceWeight(int i) {
        return sourceWeights == null ? unweighted(sources, i) : sourceWeights[i];
    }

    public int getDestination(int i) {
        return destinations[i];
    }

    /** Weight of the i-th out-edge; 0 for an unweighted graph, as for {@link #getSourceWeight}. */
    public int getDestinationWeight(int i) {
        return destWeights == null ? unweighted(destinations, i) : destWeights[i];
    }

    private static int unweighted(int[] neighbours, int i) {
        java.util.Objects.checkIndex(i, neighbours.length);
        return 0;
    }
}

package org.fthp.replication.topology;

import java.util.Arrays;

/**
 * One process's view of a distributed graph topology: the ranks it receives
 * from (sources, its in-neighbours) and sends to (destinations, its
 * out-neighbours), with optional edge weights. Weight arrays are null when
 * the graph is unweighted (MPI_UNWEIGHTED).
 *
 * <p>The adjacent form (MPI_Dist_graph_create_adjacent) is built directly
 * with the constructor. The general form (MPI_Dist_graph_create), where any
 * process may describe any edge, is resolved by
 * {@link #fromContributions} once every process's arguments have been gathered.
 */
public final class DistGraphTopology {

    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;

    /**
     * Adjacent form. The graph is weighted if either weight array is given;
     * then both must be (a missing one is accepted only for an empty list).
     * Longer weight arrays are cut to their neighbour list's length, as the C
     * binding would read no further.
     *
     * @param commSize size of the communicator, to validate neighbour ranks
     */
    public DistGraphTopology(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
            int commSize) {
        if (sources == null || destinations == null) {
            throw new IllegalArgumentException("sources and destinations must not be null");
        }
        checkRanks("source", sources, commSize);
        checkRanks("destination", destinations, commSize);
        boolean weighted = sourceWeights != null || destWeights != null;
        this.sources = sources.clone();
        this.destinations = destinations.clone();
        this.sourceWeights = weighted ? weightsFor("source", sources.length, sourceWeights) : null;
        this.destWeights = weighted ? weightsFor("destination", destinations.length, destWeights) : null;
    }

    private static int[] weightsFor(String what, int count, int[] weights) {
        if (weights == null) {
            if (count == 0) {
                return new int[0];
            }
            throw new IllegalArgumentException(what + " weights missing in a weighted graph");
        }
        if (weights.length < count) {
            throw new IllegalArgumentException(what + " weights: " + weights.length + " given for "
                    + count + " neighbours");
        }
        return Arrays.copyOf(weights, count);
    }

    private static void checkRanks(String what, int[] ranks, int commSize) {
        for (int r : ranks) {
            if (r < 0 || r >= commSize) {
                throw new IllegalArgumentException(what + " rank " + r + " out of range [0," + commSize + ")");
            }
        }
    }

    /**
     * General form: works out {@code rank}'s neighbours from every process's
     * MPI_Dist_graph_create arguments. Process p contributed
     * {@code sources[p]}, {@code degrees[p]}, {@code destinations[p]} and
     * {@code weights[p]} (null = unweighted): for each i, edges
     * {@code sources[p][i] -> destinations[p][k]} for the next degrees[p][i] values of k.
     *
     * <p><b>Order</b> (MPI leaves it unspecified; ours is deterministic so all
     * replicas agree): neighbours appear in the order their edges occur when
     * all contributions are concatenated by contributing rank, ascending, each in
     * its own array order. Duplicate edges are kept, as MPI requires.
     *
     * <p><b>Weights</b>: the graph is weighted if any process that
     * contributed edges gave weights (if none contributed edges: if any gave a
     * non-null array). Mixing weighted and unweighted contributors that both
     * contributed edges is erroneous in MPI and rejected here.
     *
     * @param rank the process whose neighbour lists are wanted
     * @param commSize size of the communicator; each array has one entry per process
     */
    public static DistGraphTopology fromContributions(int rank, int commSize, int[][] sources, int[][] degrees,
            int[][] destinations, int[][] weights) {
        if (sources == null || degrees == null || destinations == null || weights == null
                || sources.length != commSize || degrees.length != commSize
                || destinations.length != commSize || weights.length != commSize) {
            throw new IllegalArgumentException("expected one contribution per process (" + commSize + ")");
        }
        if (rank < 0 || rank >= commSize) {
            throw new IllegalArgumentException("rank " + rank + " out of range [0," + commSize + ")");
        }
        boolean weighted = isWeighted(sources, degrees, destinations, weights);

        IntList in = new IntList();
        IntList inWeights = new IntList();
        IntList out = new IntList();
        IntList outWeights = new IntList();
        for (int p = 0; p < commSize; p++) {
            int edge = 0;
            for (int i = 0; i < sources[p].length; i++) {
                int from = sources[p][i];
                for (int d = 0; d < degrees[p][i]; d++, edge++) {
                    int to = destinations[p][edge];
                    int weight = weighted ? weights[p][edge] : 1;
                    if (from == rank) {
                        out.add(to);
                        outWeights.add(weight);
                    }
                    if (to == rank) {
                        in.add(from);
                        inWeights.add(weight);
                    }
                }
            }
        }
        return new DistGraphTopology(in.toArray(), weighted ? inWeights.toArray() : null,
                out.toArray(), weighted ? outWeights.toArray() : null, commSize);
    }

    /** Validates every contribution's shape and ranks, and decides whether the graph is weighted. */
    private static boolean isWeighted(int[][] sources, int[][] degrees, int[][] destinations, int[][] weights) {
        int commSize = sources.length;
        boolean anyWeightedEdges = false;
        boolean anyUnweightedEdges = false;
        boolean anyWeightArray = false;
        for (int p = 0; p < commSize; p++) {
            if (sources[p] == null || degrees[p] == null || destinations[p] == null) {
                throw new IllegalArgumentException("process " + p + ": sources, degrees and destinations"
                        + " must not be null");
            }
            if (degrees[p].length < sources[p].length) {
                throw new IllegalArgumentException("process " + p + ": " + sources[p].length
                        + " sources but " + degrees[p].length + " degrees");
            }
            checkRanks("process " + p + ": source", sources[p], commSize);
            long edges = 0;
            for (int i = 0; i < sources[p].length; i++) {
                if (degrees[p][i] < 0) {
                    throw new IllegalArgumentException("process " + p + ": negative degree " + degrees[p][i]);
                }
                edges += degrees[p][i];
            }
            if (destinations[p].length < edges) {
                throw new IllegalArgumentException("process " + p + ": degrees promise " + edges
                        + " destinations but " + destinations[p].length + " were given");
            }
            checkRanks("process " + p + ": destination", Arrays.copyOf(destinations[p], (int) edges), commSize);
            if (weights[p] != null) {
                anyWeightArray = true;
                if (weights[p].length < edges) {
                    throw new IllegalArgumentException("process " + p + ": " + weights[p].length
                            + " weights for " + edges + " edges");
                }
            }
            if (edges > 0) {
                if (weights[p] != null) {
                    anyWeightedEdges = true;
                } else {
                    anyUnweightedEdges = true;
                }
            }
        }
        if (anyWeightedEdges && anyUnweightedEdges) {
            throw new IllegalArgumentException("some processes gave edge weights and others did not");
        }
        return anyWeightedEdges || (!anyUnweightedEdges && anyWeightArray);
    }

    /** In-neighbours (MPI_Dist_graph_neighbors' sources). */
    public int[] sources() {
        return sources.clone();
    }

    /** Weights of the in-edges, or null if unweighted. */
    public int[] sourceWeights() {
        return sourceWeights == null ? null : sourceWeights.clone();
    }

    /** Out-neighbours (MPI_Dist_graph_neighbors' destinations). */
    public int[] destinations() {
        return destinations.clone();
    }

    /** Weights of the out-edges, or null if unweighted. */
    public int[] destWeights() {
        return destWeights == null ? null : destWeights.clone();
    }

    public boolean isWeighted() {
        return sourceWeights != null;
    }

    public int inDegree() {
        return sources.length;
    }

    public int outDegree() {
        return destinations.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DistGraphTopology other
                && Arrays.equals(sources, other.sources) && Arrays.equals(sourceWeights, other.sourceWeights)
                && Arrays.equals(destinations, other.destinations) && Arrays.equals(destWeights, other.destWeights);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new int[] {Arrays.hashCode(sources), Arrays.hashCode(sourceWeights),
                Arrays.hashCode(destinations), Arrays.hashCode(destWeights)});
    }

    @Override
    public String toString() {
        return "DistGraphTopology{sources=" + Arrays.toString(sources) + ", sourceWeights="
                + Arrays.toString(sourceWeights) + ", destinations=" + Arrays.toString(destinations)
                + ", destWeights=" + Arrays.toString(destWeights) + "}";
    }

    /** Minimal growable int array, to avoid boxing while collecting edges. */
    private static final class IntList {
        private int[] values = new int[8];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}

package org.fthp.replication.topology;

import java.util.Arrays;

/**
 * One process's arguments to MPI_Dist_graph_create, cut to what the C call
 * reads, and their wire form for the exchange that lets every process work
 * out its own neighbours ({@link DistGraphTopology#fromContributions}).
 *
 * <p>The C call reads {@code n = sources.length} sources and degrees, then
 * {@code sum(degrees)} destinations and weights; Open MPI's Java binding hands
 * it whole arrays, so programs pass degree, destination and weight arrays
 * longer than that (a buffer sized for the worst case). The rest is ignored
 * here too.
 *
 * <p>Wire form: a header of {@link #HEADER_INTS} ints (source count, edge
 * count, weighted flag; a negative source count marks arguments this process
 * found invalid, so every process leaves the exchange with the same error
 * instead of the others waiting), then sources, degrees, destinations and,
 * when weighted, weights.
 */
public record DistGraphContribution(int[] sources, int[] degrees, int[] destinations, int[] weights) {

    public static final int HEADER_INTS = 3;
    private static final int INVALID = -1;

    /**
     * The used part of a process's arguments ({@code weights} null = MPI_UNWEIGHTED).
     *
     * @throws IllegalArgumentException if an array is missing or shorter than the call reads
     */
    public static DistGraphContribution of(int[] sources, int[] degrees, int[] destinations, int[] weights) {
        if (sources == null || degrees == null || destinations == null) {
            throw new IllegalArgumentException("sources, degrees and destinations must not be null");
        }
        int n = sources.length;
        if (degrees.length < n) {
            throw new IllegalArgumentException(n + " sources but only " + degrees.length + " degrees");
        }
        long edges = 0;
        for (int i = 0; i < n; i++) {
            if (degrees[i] < 0) {
                throw new IllegalArgumentException("negative degree " + degrees[i] + " for source " + i);
            }
            edges += degrees[i];
        }
        if (destinations.length < edges) {
            throw new IllegalArgumentException("degrees promise " + edges + " destinations but "
                    + destinations.length + " were given");
        }
        if (weights != null && weights.length < edges) {
            throw new IllegalArgumentException(weights.length + " weights for " + edges + " edges");
        }
        int e = (int) edges;
        return new DistGraphContribution(sources.clone(), Arrays.copyOf(degrees, n), Arrays.copyOf(destinations, e),
                weights == null ? null : Arrays.copyOf(weights, e));
    }

    /** The header of a process whose arguments were invalid. */
    public static int[] invalidHeader() {
        return new int[] {INVALID, 0, 0};
    }

    public int[] header() {
        return new int[] {sources.length, destinations.length, weights == null ? 0 : 1};
    }

    /** Ints of the body that follows a header. */
    public static int bodyInts(int[] headers, int process) {
        int n = headers[HEADER_INTS * process];
        if (n < 0) {
            return 0;
        }
        int edges = headers[HEADER_INTS * process + 1];
        boolean weighted = headers[HEADER_INTS * process + 2] != 0;
        return 2 * n + edges + (weighted ? edges : 0);
    }

    /** True if the process's header says its arguments were invalid. */
    public static boolean isInvalid(int[] headers, int process) {
        return headers[HEADER_INTS * process] < 0;
    }

    public int[] body() {
        int[] out = new int[2 * sources.length + destinations.length + (weights == null ? 0 : weights.length)];
        int at = 0;
        for (int[] part : new int[][] {sources, degrees, destinations, weights}) {
            if (part != null) {
                System.arraycopy(part, 0, out, at, part.length);
                at += part.length;
            }
        }
        return out;
    }

    /** The contribution of {@code process}, whose body starts at {@code at} in {@code bodies}. */
    public static DistGraphContribution decode(int[] headers, int process, int[] bodies, int at) {
        if (isInvalid(headers, process)) {
            throw new IllegalArgumentException("process " + process + " gave invalid arguments");
        }
        int n = headers[HEADER_INTS * process];
        int edges = headers[HEADER_INTS * process + 1];
        boolean weighted = headers[HEADER_INTS * process + 2] != 0;
        int[] src = Arrays.copyOfRange(bodies, at, at + n);
        int[] deg = Arrays.copyOfRange(bodies, at + n, at + 2 * n);
        int[] dst = Arrays.copyOfRange(bodies, at + 2 * n, at + 2 * n + edges);
        int[] w = weighted ? Arrays.copyOfRange(bodies, at + 2 * n + edges, at + 2 * n + 2 * edges) : null;
        return new DistGraphContribution(src, deg, dst, w);
    }

    /**
     * {@code rank}'s view of the graph all contributions describe (one per
     * process, in rank order).
     */
    public static DistGraphTopology topology(int rank, DistGraphContribution[] all) {
        int n = all.length;
        int[][] src = new int[n][];
        int[][] deg = new int[n][];
        int[][] dst = new int[n][];
        int[][] wts = new int[n][];
        for (int p = 0; p < n; p++) {
            src[p] = all[p].sources;
            deg[p] = all[p].degrees;
            dst[p] = all[p].destinations;
            wts[p] = all[p].weights;
        }
        return DistGraphTopology.fromContributions(rank, n, src, deg, dst, wts);
    }
}

package org.fthp.replication.p2p;

import java.util.Arrays;

import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.topology.CartTopology;

/**
 * Who a neighbourhood collective receives from and sends to, in the
 * standard's order, and the internal-channel tag each message carries, so
 * two edges between the same two processes stay apart.
 */
public record NeighborLists(int[] in, int[] inTags, int[] out, int[] outTags) {

    /** The first tag of neighbourhood messages (docs/DESIGN.md §16). */
    public static final int TAG_BASE = InternalTags.NEIGHBOURS.first();

    /**
     * A Cartesian topology's neighbours: per dimension the -1 then the +1
     * neighbour ({@code procNull} past a non-periodic edge), both ways.
     */
    public static NeighborLists cartesian(CartTopology topology, int rank, int procNull) {
        int n = topology.ndims();
        int[] in = new int[2 * n];
        int[] out = new int[2 * n];
        int[] inTags = new int[2 * n];
        int[] outTags = new int[2 * n];
        for (int d = 0; d < n; d++) {
            int[] sd = topology.shift(rank, d, 1, procNull);
            in[2 * d] = sd[0];
            in[2 * d + 1] = sd[1];
            out[2 * d] = sd[0];
            out[2 * d + 1] = sd[1];
            // a message sent towards -1 arrives at that neighbour from its +1 side
            outTags[2 * d] = TAG_BASE + 2 * d;
            outTags[2 * d + 1] = TAG_BASE + 2 * d + 1;
            inTags[2 * d] = TAG_BASE + 2 * d + 1;
            inTags[2 * d + 1] = TAG_BASE + 2 * d;
        }
        return new NeighborLists(in, inTags, out, outTags);
    }

    /** A graph's neighbours: every edge carries the same tag (MPI orders messages between two processes). */
    public static NeighborLists graph(int[] in, int[] out) {
        int[] inTags = new int[in.length];
        int[] outTags = new int[out.length];
        Arrays.fill(inTags, TAG_BASE);
        Arrays.fill(outTags, TAG_BASE);
        return new NeighborLists(in, inTags, out, outTags);
    }
}

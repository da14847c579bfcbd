package org.fthp.apps.cloverleaf;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A checksum of the final state that does not depend on the decomposition: every cell value
 * (density, energy, pressure) and every vertex velocity is hashed with its global position, and the
 * hashes are added modulo 2^64, which is exact and order-free. Equal checksums on different rank
 * counts mean bitwise-equal fields; the field summaries cannot show that, since their floating-point
 * sums depend on the order.
 */
final class FieldChecksum {

    private FieldChecksum() {}

    static long compute(Chunk c, int[] neighbours, int xCells, Intracomm comm) throws MPIException {
        long sum = 0;
        // a vertex on a boundary between chunks is held by both: count it on the chunk to its right / above
        int jHi = c.xMax + (neighbours[Decomposition.RIGHT] == Decomposition.EXTERNAL ? 1 : 0);
        int kHi = c.yMax + (neighbours[Decomposition.TOP] == Decomposition.EXTERNAL ? 1 : 0);
        long width = xCells + 1L;
        for (int k = 1; k <= kHi; k++) {
            for (int j = 1; j <= jHi; j++) {
                int i = c.idx(j, k);
                long g = (c.bottom + k - 1L) * width + (c.left + j - 1L);
                sum += mix(Double.doubleToLongBits(c.xvel0[i]) ^ mix(4 * g));
                sum += mix(Double.doubleToLongBits(c.yvel0[i]) ^ mix(4 * g + 1));
                if (j <= c.xMax && k <= c.yMax) {
                    sum += mix(Double.doubleToLongBits(c.density0[i]) ^ mix(4 * g + 2));
                    sum += mix(Double.doubleToLongBits(c.energy0[i]) ^ mix(4 * g + 3));
                    sum += mix(Double.doubleToLongBits(c.pressure[i]) ^ mix(~g));
                }
            }
        }
        long[] buf = {sum};
        comm.allReduce(buf, 1, MPI.LONG, MPI.SUM);
        return buf[0];
    }

    /** SplitMix64's finaliser: spreads every input bit over the whole word. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}

package org.fthp.it.programs;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;

/**
 * Allreduce with a non-commutative operation (2x2 integer matrix product) and
 * with order-sensitive doubles, on any number of ranks (odd ones included):
 * the result must be the rank-ordered product, and bitwise the same on every rank.
 */
public final class CollAllreduceOrder {

    /** inout = in x inout for 2x2 matrices stored as int[4] (row-major); exact in int arithmetic. */
    static final class MatMul extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype type) {
            int[] a = (int[]) inVec;
            int[] b = (int[]) inOutVec;
            for (int k = 0; k < count; k++) {
                int o = 4 * k;
                int c0 = a[o] * b[o] + a[o + 1] * b[o + 2];
                int c1 = a[o] * b[o + 1] + a[o + 1] * b[o + 3];
                int c2 = a[o + 2] * b[o] + a[o + 3] * b[o + 2];
                int c3 = a[o + 2] * b[o + 1] + a[o + 3] * b[o + 3];
                b[o] = c0;
                b[o + 1] = c1;
                b[o + 2] = c2;
                b[o + 3] = c3;
            }
        }
    }

    /** Throws on every rank where it runs ({@code onRank} -1), or only on rank {@code onRank}. */
    static final class Failing extends UserFunction {
        private final int onRank;
        private final int rank;

        Failing(int onRank, int rank) {
            this.onRank = onRank;
            this.rank = rank;
        }

        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype type) throws MPIException {
            if (onRank < 0 || onRank == rank) {
                throw new MPIException("the operation failed on rank " + rank);
            }
        }
    }

    /**
     * An operation that throws (under ERRORS_RETURN), on every rank or on rank 1 only: every rank's call
     * returns, rank 1's with its operation's exception (an odd size folds rank 0 into rank 1, so rank 0 never
     * combines), and the next allreduce pairs up. Recursive doubling must run its whole schedule: a rank that
     * stopped at its failure would leave its later partners, and a folded-out rank, waiting for good.
     */
    static void failingOperations(Intracomm w, int rank, int size) throws MPIException {
        w.setErrhandler(MPI.ERRORS_RETURN);
        for (int onRank : new int[] {-1, 1}) {
            Op failing = new Op(new Failing(onRank, rank), true);
            String outcome = "completed";
            try {
                w.allReduce(new int[] {rank}, new int[1], 1, MPI.INT, failing);
            } catch (MPIException e) {
                outcome = e.getMessage();
            }
            if (rank == 1) {
                Check.that(outcome.contains("the operation failed on rank 1"),
                        "rank 1's own failure reaches its call (onRank " + onRank + "): " + outcome);
            }
            if (onRank < 0) {
                Check.that(!outcome.equals("completed"), "a reduction failed everywhere completed on rank " + rank);
            }
            int[] sum = {1};
            w.allReduce(sum, 1, MPI.INT, MPI.SUM);
            Check.equal(size, sum[0], "allreduce after a failed one (onRank " + onRank + ")");
            failing.free();
        }
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }

    static int[] matrix(int rank, int k) {
        return new int[] {1, rank + k, 0, 1 + (rank % 2)};
    }

    static int[] times(int[] a, int[] b) {
        return new int[] {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Datatype mat = Datatype.createContiguous(4, MPI.INT);
        mat.commit();
        Op mul = new Op(new MatMul(), false);

        for (int items : new int[] {1, 3, 700}) {   // 700 x 16 B: above the small-allreduce size too
            int[] mine = new int[4 * items];
            for (int k = 0; k < items; k++) {
                System.arraycopy(matrix(rank, k), 0, mine, 4 * k, 4);
            }
            int[] got = new int[4 * items];
            w.allReduce(mine, got, items, mat, mul);
            for (int k = 0; k < items; k++) {
                int[] expect = matrix(0, k);
                for (int r = 1; r < size; r++) {
                    expect = times(expect, matrix(r, k));
                }
                int[] actual = java.util.Arrays.copyOfRange(got, 4 * k, 4 * k + 4);
                Check.array(expect, actual, "rank-ordered product, item " + k + " of " + items);
            }
        }

        // order-sensitive doubles: every rank must hold the very same bits
        double[] x = new double[5];
        for (int i = 0; i < x.length; i++) {
            x[i] = (rank % 2 == 0 ? 1e16 : 1.0) * (i + 1) + rank * 0.1;
        }
        double[] sum = new double[x.length];
        w.allReduce(x, sum, x.length, MPI.DOUBLE, MPI.SUM);
        long[] bits = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            bits[i] = Double.doubleToRawLongBits(sum[i]);
        }
        long[] all = new long[x.length * size];
        w.allGather(bits, x.length, MPI.LONG, all, x.length, MPI.LONG);
        for (int r = 1; r < size; r++) {
            for (int i = 0; i < x.length; i++) {
                Check.equal(all[i], all[r * x.length + i], "bits of sum " + i + " on rank " + r);
            }
        }
        failingOperations(w, rank, size);
        w.barrier();
        if (rank == 0) {
            System.out.println("CollAllreduceOrder OK np=" + size);
        }
        MPI.Finalize();
    }
}

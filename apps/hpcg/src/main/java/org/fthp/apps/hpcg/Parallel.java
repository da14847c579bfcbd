package org.fthp.apps.hpcg;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The run's communicator and clock, or a serial stand-in so the kernels can be unit-tested and
 * benchmarked on one process without MPI. Reductions reuse fixed one-element buffers: the dot
 * products call them three times per CG iteration.
 */
final class Parallel {
    final int rank;
    final int size;
    private final Intracomm comm;   // null: serial, no MPI
    private final double[] dIn = new double[1];
    private final double[] dOut = new double[1];
    private final long[] lIn = new long[1];
    private final long[] lOut = new long[1];

    private Parallel(Intracomm comm, int rank, int size) {
        this.comm = comm;
        this.rank = rank;
        this.size = size;
    }

    static Parallel world() throws MPIException {
        return new Parallel(MPI.COMM_WORLD, MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize());
    }

    static Parallel serial() {
        return new Parallel(null, 0, 1);
    }

    boolean isSerial() {
        return comm == null;
    }

    /** Communicator for the halo exchange; null when serial (then there are no neighbours). */
    Intracomm comm() {
        return comm;
    }

    /**
     * Wall-clock seconds. MPI.wtime under MPI: the timed-set count is chosen from measured time,
     * and a replica must see its twin's clock to walk the same path (docs/DESIGN.md §7).
     */
    double now() {
        if (comm == null) {
            return System.nanoTime() * 1e-9;
        }
        try {
            return MPI.wtime();
        } catch (MPIException e) {
            throw new IllegalStateException("MPI.wtime failed", e);
        }
    }

    double sum(double v) {
        return reduce(v, MPI.SUM);
    }

    double max(double v) {
        return reduce(v, MPI.MAX);
    }

    double min(double v) {
        return reduce(v, MPI.MIN);
    }

    private double reduce(double v, mpi.Op op) {
        if (comm == null) {
            return v;
        }
        dIn[0] = v;
        try {
            comm.allReduce(dIn, dOut, 1, MPI.DOUBLE, op);
        } catch (MPIException e) {
            throw new IllegalStateException("allReduce failed", e);
        }
        return dOut[0];
    }

    long sum(long v) {
        if (comm == null) {
            return v;
        }
        lIn[0] = v;
        try {
            comm.allReduce(lIn, lOut, 1, MPI.LONG, MPI.SUM);
        } catch (MPIException e) {
            throw new IllegalStateException("allReduce failed", e);
        }
        return lOut[0];
    }

    /** Rank 0's values to everyone (the reference broadcasts the parameters it read). */
    void bcast(int[] values) {
        if (comm == null) {
            return;
        }
        try {
            comm.bcast(values, values.length, MPI.INT, 0);
        } catch (MPIException e) {
            throw new IllegalStateException("bcast failed", e);
        }
    }
}

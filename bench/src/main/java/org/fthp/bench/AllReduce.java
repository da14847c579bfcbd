package org.fthp.bench;

import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code allReduce(double[], SUM)} on all ranks of {@code MPI.COMM_WORLD} through the
 * {@code mpi} API. Same pattern, counts and iterations as {@code bench/src/main/c/allreduce.c}.
 *
 * <p>Output, rank 0 only: {@code allreduce <count> <us_per_call>}, the maximum over
 * ranks of the mean time per call.
 */
public final class AllReduce {
    static final int[] COUNTS = {1, 1024};

    /** Same as timed_iters() in allreduce.c: keep in sync. */
    static int timedIters(int count) { return count <= 1 ? 100000 : 20000; }

    /** Same as warmup_iters() in allreduce.c; long enough for C2 to compile the loop. */
    static int warmupIters(int count) { return count <= 1 ? 20000 : 5000; }

    // The JIT compiler threads share two cores with two busy-polling ranks, so compilation
    // finishes only after a few hundred thousand calls: warm up that long (about 2 s).
    static final int JIT_ROUNDS = 400, JIT_ITERS = 500;

    private AllReduce() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank(), size = comm.getSize();
        int max = COUNTS[COUNTS.length - 1];
        double[] in = new double[max], out = new double[max];
        for (int i = 0; i < max; i++) in[i] = rank + i;

        // JIT warm-up (Java only): many calls of the kernel with every count, so C2 has compiled
        // it with a profile that covers them all (a count first seen while timing would deoptimize).
        comm.barrier();
        for (int round = 0; round < JIT_ROUNDS; round++) {
            for (int n : COUNTS) {
                loop(comm, in, out, n, n <= 1 ? JIT_ITERS : JIT_ITERS / 10);
            }
        }
        double[] result = new double[COUNTS.length];
        for (int c = 0; c < COUNTS.length; c++) {
            int n = COUNTS[c], warm = warmupIters(n), iters = timedIters(n);
            comm.barrier();
            loop(comm, in, out, n, warm);
            comm.barrier();
            double t0 = MPI.wtime();
            loop(comm, in, out, n, iters);
            double us = (MPI.wtime() - t0) / iters * 1e6;
            // Max over ranks using SUM only: each rank fills its own slot.
            double[] mine = new double[size], all = new double[size];
            mine[rank] = us;
            comm.allReduce(mine, all, size, MPI.DOUBLE, MPI.SUM);
            double maxUs = 0;
            for (double v : all) maxUs = Math.max(maxUs, v);
            result[c] = maxUs;
        }
        // Printed at the end: loading the formatting classes mid-run deoptimizes the compiled kernel.
        if (rank == 0) {
            for (int c = 0; c < COUNTS.length; c++) {
                System.out.printf(Locale.ROOT, "allreduce %d %.4f%n", COUNTS[c], result[c]);
            }
            System.out.flush();
        }
        MPI.Finalize();
    }

    private static void loop(Intracomm comm, double[] in, double[] out, int n, int iters) throws MPIException {
        for (int i = 0; i < iters; i++) {
            comm.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM);
        }
    }
}

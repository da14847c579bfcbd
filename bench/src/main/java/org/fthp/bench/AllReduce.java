package org.fthp.bench;

import java.util.Arrays;
import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code allReduce(double[], SUM)} on all ranks of {@code MPI.COMM_WORLD} through the
 * {@code mpi} API. Same pattern, counts and iterations as {@code bench/src/main/c/allreduce.c}.
 *
 * <p>Output, rank 0 only: {@code allreduce <count> <us_per_call> <min_slice_us> <max_slice_us>}:
 * per timed slice the maximum over ranks of the mean time per call, then the median of
 * {@link #SLICES} slices.
 * With {@code -Dfthp.bench.cpuDir=DIR} every process also writes the CPU its timed part cost, per call
 * ({@link ProcessCpu}).
 */
public final class AllReduce {
    static final int[] COUNTS = {1, 1024};

    /** Timed slices per count, as SLICES in allreduce.c; every timedIters() is a multiple. */
    static final int SLICES = 10;

    /** Same as timed_iters() in allreduce.c: keep in sync. */
    static int timedIters(int count) { return count <= 1 ? 100000 : 20000; }

    /** Same as warmup_iters() in allreduce.c; long enough for C2 to compile the loop. */
    static int warmupIters(int count) { return count <= 1 ? 20000 : 5000; }

    // The JIT compiler threads share two cores with two busy-polling ranks, so when compilation
    // finishes varies from run to run: warm up for a minimum number of rounds, then on until the JIT is
    // quiet (JitWarmup). The minimum is high because quiet is not always done: the inline allreduce of a
    // job without replicas keeps recompiling its wait loop (DutyCycle.await traps on class checks) for a
    // while after the compilers first go quiet, and times too slow until it stops.
    static final int JIT_MIN_ROUNDS = 100, JIT_ITERS = 10_000; // calls of the smallest size per round

    private AllReduce() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        int max = COUNTS[COUNTS.length - 1];
        double[] in = new double[max], out = new double[max];
        for (int i = 0; i < max; i++) in[i] = rank + i;

        double[][] slowest = new double[COUNTS.length][SLICES];
        double[] mine = new double[SLICES];

        // JIT warm-up (Java only): many calls of the kernel with every count, so C2 has compiled
        // it with a profile that covers them all (a count first seen while timing would deoptimize).
        comm.barrier();
        JitWarmup.untilQuiet(comm, JIT_MIN_ROUNDS, () -> {
            for (int n : COUNTS) {
                loop(comm, in, out, n, n <= 1 ? JIT_ITERS : JIT_ITERS / 10);
            }
            comm.reduce(mine, slowest[0], SLICES, MPI.DOUBLE, MPI.MAX, 0); // as after the timed slices
        });
        // SLICES timed slices between barriers, as allreduce.c: per slice the slowest rank's
        // mean, then the median slice, with the fastest and slowest slice beside it.
        long[] cpu = new long[COUNTS.length], calls = new long[COUNTS.length];
        for (int c = 0; c < COUNTS.length; c++) {
            int n = COUNTS[c], warm = warmupIters(n), perSlice = timedIters(n) / SLICES;
            comm.barrier();
            loop(comm, in, out, n, warm);
            long c0 = ProcessCpu.nanos();
            for (int k = 0; k < SLICES; k++) {
                comm.barrier();
                double t0 = MPI.wtime();
                loop(comm, in, out, n, perSlice);
                mine[k] = (MPI.wtime() - t0) / perSlice * 1e6;
            }
            cpu[c] = ProcessCpu.nanos() - c0;
            calls[c] = (long) perSlice * SLICES;
            comm.reduce(mine, slowest[c], SLICES, MPI.DOUBLE, MPI.MAX, 0);
        }
        // Printed at the end: loading the formatting classes mid-run deoptimizes the compiled kernel.
        if (rank == 0) {
            for (int c = 0; c < COUNTS.length; c++) {
                double[] t = slowest[c];
                Arrays.sort(t);
                System.out.printf(Locale.ROOT, "allreduce %d %.4f %.4f %.4f%n", COUNTS[c],
                        (t[SLICES / 2 - 1] + t[SLICES / 2]) / 2, t[0], t[SLICES - 1]);
            }
            System.out.flush();
        }
        ProcessCpu.write("allreduce", COUNTS, cpu, calls);
        MPI.Finalize();
    }

    private static void loop(Intracomm comm, double[] in, double[] out, int n, int iters) throws MPIException {
        for (int i = 0; i < iters; i++) {
            comm.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM);
        }
    }
}

package org.fthp.apps.hpcg;

import java.util.Arrays;

/**
 * How close SpMV and the Gauss–Seidel sweep come to the machine's memory bandwidth, on one
 * process and without MPI. The bandwidth yardstick is a streaming copy in Java over arrays far
 * larger than the caches (STREAM's "copy": 16 bytes moved per element). Kernel traffic is counted
 * as the reference's ReportResults counts it: SpMV reads nnz values and indices (12 bytes each)
 * plus nrow x values and writes nrow results; a symmetric sweep reads the matrix twice.
 *
 * <p>Usage: {@code KernelBench [--n=64] [--reps=30] [--stream-mb=256]}; prints medians.
 */
public final class KernelBench {

    private KernelBench() {}

    public static void main(String[] args) {
        int n = 64;
        int reps = 30;
        int streamMb = 256;
        for (String a : args) {
            if (a.startsWith("--n=")) {
                n = Integer.parseInt(a.substring(4));
            } else if (a.startsWith("--reps=")) {
                reps = Integer.parseInt(a.substring(7));
            } else if (a.startsWith("--stream-mb=")) {
                streamMb = Integer.parseInt(a.substring(12));
            } else {
                System.err.println("usage: KernelBench [--n=64] [--reps=30] [--stream-mb=256]");
                System.exit(2);
            }
        }
        double copyGBs = streamCopy(streamMb * 1024 * 1024 / 8 / 2, reps);
        System.out.printf("stream copy: %.2f GB/s (median of %d, 2 arrays of %d MiB)%n", copyGBs, reps, streamMb / 2);

        Geometry g = Geometry.create(1, 0, n, n, n, 1, 1, 1);
        Problem p = Problem.build(g, Parallel.serial());
        SparseMatrix a = p.a;
        double nnz = a.localNonzeros;
        double nrow = a.nrow;
        double[] x = new double[a.ncol];
        double[] y = new double[a.nrow];
        new CRandom().fill(x);

        double spmvBytes = nnz * (8 + 4) + nrow * 8 + nrow * 8;
        double[] t = new double[reps];
        for (int w = 0; w < 5; w++) {
            Kernels.spmvLocal(a, x, y);
        }
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            Kernels.spmvLocal(a, x, y);
            t[r] = (System.nanoTime() - t0) * 1e-9;
        }
        double ts = median(t);
        double spmvGBs = spmvBytes / ts / 1e9;
        System.out.printf("spmv %d^3: %.3f ms, %.3f GFLOP/s, %.2f GB/s (reference byte model), %.0f%% of stream copy%n",
                n, ts * 1e3, 2 * nnz / ts / 1e9, spmvGBs, 100 * spmvGBs / copyGBs);

        double symgsBytes = 2 * nnz * (8 + 4) + nrow * 8 + nrow * 8;
        double[] r0 = Arrays.copyOf(y, a.nrow);
        for (int w = 0; w < 5; w++) {
            Kernels.symgsLocal(a, r0, x);
        }
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            Kernels.symgsLocal(a, r0, x);
            t[r] = (System.nanoTime() - t0) * 1e-9;
        }
        double tg = median(t);
        double symgsGBs = symgsBytes / tg / 1e9;
        System.out.printf("symgs %d^3: %.3f ms, %.3f GFLOP/s, %.2f GB/s (reference byte model), %.0f%% of stream copy%n",
                n, tg * 1e3, 4 * nnz / tg / 1e9, symgsGBs, 100 * symgsGBs / copyGBs);
        System.out.printf("bytes per flop (reference model): spmv %.2f, symgs %.2f%n",
                spmvBytes / (2 * nnz), symgsBytes / (4 * nnz));
    }

    /** Median GB/s of a[i] -> b[i] copies, counting the read and the write (16 bytes per element). */
    static double streamCopy(int elements, int reps) {
        double[] src = new double[elements];
        double[] dst = new double[elements];
        Arrays.fill(src, 1.5);
        double[] rates = new double[reps];
        for (int w = 0; w < 3; w++) {
            copy(src, dst);
        }
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            copy(src, dst);
            double s = (System.nanoTime() - t0) * 1e-9;
            rates[r] = 16.0 * elements / s / 1e9;
        }
        if (dst[elements / 2] != 1.5) {
            throw new AssertionError("copy went wrong");
        }
        return median(rates);
    }

    /** An explicit loop, as a kernel would stream, rather than System.arraycopy's memmove. */
    private static void copy(double[] src, double[] dst) {
        for (int i = 0; i < src.length; i++) {
            dst[i] = src[i];
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : 0.5 * (s[m - 1] + s[m]);
    }
}

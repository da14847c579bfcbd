package org.fthp.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Ping-pong between ranks 0 and 1 through the {@code mpi} API (Open MPI 4.1 Java
 * binding API: runs on the FTHP-J facade or, unchanged, on Open MPI's own mpi.jar).
 * Same pattern, sizes and iteration counts as {@code bench/src/main/c/pingpong.c}.
 *
 * <p>Output, rank 0 only, one line per size:
 * {@code pingpong <bytes> <oneway_us> <GBps> <min_slice_us> <max_slice_us>}, one-way time =
 * round trip / 2 in the median of {@link #SLICES} timed slices, GB/s = bytes / one-way time
 * (1 GB = 1e9 B).
 * With {@code -Dfthp.bench.cpuDir=DIR} every process also writes the CPU its timed part cost, per call
 * ({@link ProcessCpu}).
 *
 * <p>Default: one direct buffer from {@link MPI#newByteBuffer(int)}.
 * {@code --arrays}: a {@code byte[]} instead. {@code --sizes 65536,1048576}: only these sizes
 * (the JIT warm-up is the same), for a quick look at one part of the curve.
 */
public final class PingPong {
    static final int[] SIZES = {8, 64, 512, 4096, 65536, 1048576, 4194304};

    /** Timed slices per size, as SLICES in pingpong.c; every timedIters() is a multiple. */
    static final int SLICES = 10;

    /** Same as timed_iters() in pingpong.c: keep in sync. */
    static int timedIters(int bytes) {
        if (bytes <= 512) return 200000;
        if (bytes <= 4096) return 100000;
        if (bytes <= 65536) return 2000;
        if (bytes <= 1048576) return 1000;
        return 500;
    }

    /**
     * Same as warmup_iters() in pingpong.c; long enough for C2 to compile the loop. From 1 MiB up 200 round
     * trips, and slices of at least 20 (timedIters): pingpong.c says why.
     */
    static int warmupIters(int bytes) {
        if (bytes <= 4096) return 100000;
        if (bytes <= 65536) return 1000;
        return 200;
    }

    // The JIT compiler threads share two cores with two busy-polling ranks, so compilation
    // needs a few hundred thousand calls, and when it finishes varies from run to run: warm up at
    // least that long, then on until the JIT is quiet (JitWarmup).
    static final int JIT_MIN_ROUNDS = 20, JIT_ITERS = 10_000; // round trips per size per round
    static final int JIT_LARGE_BYTES = 65536;

    private PingPong() {}

    public static void main(String[] args) throws MPIException {
        boolean arrays = false;
        int[] sizes = SIZES;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--arrays")) arrays = true;
            else if (a.equals("--sizes") && i + 1 < args.length) {
                sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
            } else if (!a.isEmpty()) {
                System.err.println("usage: PingPong [--arrays] [--sizes n,n,...]");
                System.exit(2);
            }
        }
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        if (comm.getSize() < 2) {
            if (rank == 0) System.err.println("pingpong needs at least 2 ranks");
            MPI.Finalize();
            System.exit(1);
        }
        int max = Math.max(4096, Arrays.stream(sizes).max().orElse(8));   // the JIT warm-up sends up to 4 KiB (64 KiB if any size is that large)
        Object buf = buffer(max, arrays);
        // JIT warm-up (Java only; the per-size warm-up below is the same as in C): many calls of
        // the kernel with small sizes, so C2 has compiled it (not only OSR'd the loop) before
        // the first timed size. Without this the compilation lands in the 64 B measurement.
        comm.barrier();
        Object kernelBuf = buf;
        // A large message takes another path than a small one (its payload apart from its header), so one
        // large size is warmed too, in fewer round trips, since each costs an order of magnitude more.
        boolean large = max >= JIT_LARGE_BYTES;
        JitWarmup.untilQuiet(comm, JIT_MIN_ROUNDS, () -> {
            for (int n : SIZES) {
                if (n <= 4096) loop(comm, rank, kernelBuf, n, JIT_ITERS);
            }
            if (large) loop(comm, rank, kernelBuf, JIT_LARGE_BYTES, JIT_ITERS / 10);
        });
        // The timed part runs as SLICES slices, each timed alone between barriers; the result
        // is the median slice (as pingpong.c), with the fastest and slowest slice beside it.
        double[][] slices = new double[sizes.length][SLICES];
        long[] cpu = new long[sizes.length], roundTrips = new long[sizes.length];
        for (int s = 0; s < sizes.length; s++) {
            int n = sizes[s], warm = warmupIters(n), perSlice = timedIters(n) / SLICES;
            comm.barrier();
            loop(comm, rank, buf, n, warm);
            long c0 = ProcessCpu.nanos();
            for (int k = 0; k < SLICES; k++) {
                comm.barrier();
                double t0 = MPI.wtime();
                loop(comm, rank, buf, n, perSlice);
                slices[s][k] = (MPI.wtime() - t0) / perSlice / 2.0;
            }
            cpu[s] = ProcessCpu.nanos() - c0;
            roundTrips[s] = (long) perSlice * SLICES;
        }
        // Printed at the end: loading the formatting classes mid-run deoptimizes the compiled kernel.
        if (rank == 0) {
            for (int s = 0; s < sizes.length; s++) {
                double[] t = slices[s];
                Arrays.sort(t);
                double oneway = (t[SLICES / 2 - 1] + t[SLICES / 2]) / 2;
                System.out.printf(Locale.ROOT, "pingpong %d %.4f %.4f %.4f %.4f%n", sizes[s], oneway * 1e6,
                        sizes[s] / oneway / 1e9, t[0] * 1e6, t[SLICES - 1] * 1e6);
            }
            System.out.flush();
        }
        ProcessCpu.write("pingpong", sizes, cpu, roundTrips);
        MPI.Finalize();
    }

    /** A message buffer of {@code bytes} ones: a {@code byte[]}, or a direct buffer from MPI.newByteBuffer. */
    static Object buffer(int bytes, boolean arrays) {
        if (arrays) {
            byte[] a = new byte[bytes];
            Arrays.fill(a, (byte) 1);
            return a;
        }
        ByteBuffer b = MPI.newByteBuffer(bytes);
        for (int i = 0; i < bytes; i++) b.put(i, (byte) 1);
        return b;
    }

    /**
     * The measured kernel: the same method runs warm-up and timed part, so it is compiled when timed
     * (LargeCost runs it too).
     */
    static void loop(Intracomm comm, int rank, Object buf, int n, int iters) throws MPIException {
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                comm.send(buf, n, MPI.BYTE, 1, 1);
                comm.recv(buf, n, MPI.BYTE, 1, 1);
            } else if (rank == 1) {
                comm.recv(buf, n, MPI.BYTE, 0, 1);
                comm.send(buf, n, MPI.BYTE, 0, 1);
            }
        }
    }
}

package org.fthp.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The nonblocking small exchange between ranks 0 and 1, as a halo exchange makes it: each posts
 * {@code iRecv} from the other, then {@code iSend} to it, then {@code Request.waitAll} on both, through the
 * {@code mpi} API (runs on the FTHP-J facade or, unchanged, on Open MPI's own mpi.jar), direct buffers.
 *
 * <p>Output, rank 0 only, one line per size: {@code exchange <bytes> <us_per_exchange> <min_slice_us>
 * <max_slice_us>}: per timed slice the slower rank's mean time per exchange, then the median of
 * {@link #SLICES} slices. {@code --sizes 128,2048}: only these sizes.
 */
public final class SmallExchange {
    static final int[] SIZES = {128, 512, 2048};

    /** Timed slices per size; TIMED_ITERS is a multiple. */
    static final int SLICES = 10;
    static final int TIMED_ITERS = 100_000;
    static final int WARMUP_ITERS = 20_000;

    // as PingPong: the JIT shares the two cores with the two polling ranks; warm up until it is quiet
    static final int JIT_MIN_ROUNDS = 20, JIT_ITERS = 10_000;

    private SmallExchange() {}

    public static void main(String[] args) throws MPIException {
        int[] sizes = SIZES;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--sizes")) {
                sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
            }
        }
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        if (comm.getSize() != 2) {
            if (rank == 0) {
                System.err.println("SmallExchange needs exactly 2 ranks");
            }
            MPI.Finalize();
            System.exit(2);
        }
        int peer = 1 - rank;
        int max = Arrays.stream(sizes).max().orElse(0);
        ByteBuffer out = MPI.newByteBuffer(max);
        ByteBuffer in = MPI.newByteBuffer(max);
        Request[] both = new Request[2];
        double[] mine = new double[SLICES];
        double[][] slower = new double[sizes.length][SLICES];
        int[] all = sizes;

        comm.barrier();
        JitWarmup.untilQuiet(comm, JIT_MIN_ROUNDS, () -> {
            for (int n : all) {
                loop(comm, in, out, n, peer, both, JIT_ITERS);
            }
            comm.reduce(mine, slower[0], SLICES, MPI.DOUBLE, MPI.MAX, 0); // as after the timed slices
        });
        for (int s = 0; s < sizes.length; s++) {
            int n = sizes[s], perSlice = TIMED_ITERS / SLICES;
            comm.barrier();
            loop(comm, in, out, n, peer, both, WARMUP_ITERS);
            for (int k = 0; k < SLICES; k++) {
                comm.barrier();
                double t0 = MPI.wtime();
                loop(comm, in, out, n, peer, both, perSlice);
                mine[k] = (MPI.wtime() - t0) / perSlice * 1e6;
            }
            comm.reduce(mine, slower[s], SLICES, MPI.DOUBLE, MPI.MAX, 0);
        }
        // printed at the end: loading the formatting classes mid-run deoptimizes the compiled kernel
        if (rank == 0) {
            for (int s = 0; s < sizes.length; s++) {
                double[] t = slower[s];
                Arrays.sort(t);
                System.out.printf(Locale.ROOT, "exchange %d %.4f %.4f %.4f%n", sizes[s],
                        (t[SLICES / 2 - 1] + t[SLICES / 2]) / 2, t[0], t[SLICES - 1]);
            }
            System.out.flush();
        }
        MPI.Finalize();
    }

    private static void loop(Intracomm comm, ByteBuffer in, ByteBuffer out, int n, int peer, Request[] both,
                             int iters) throws MPIException {
        for (int i = 0; i < iters; i++) {
            both[0] = comm.iRecv(in, n, MPI.BYTE, peer, 0);
            both[1] = comm.iSend(out, n, MPI.BYTE, peer, 0);
            Request.waitAll(both);
        }
    }
}

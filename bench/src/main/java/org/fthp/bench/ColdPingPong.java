package org.fthp.bench;

import java.util.Arrays;
import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Ping-pong of {@code byte[]} between ranks 0 and 1 as a program runs it: from MPI_Init on, with no warm-up
 * phase, so the time includes whatever the JVM compiles, loads or links on the way. {@link PingPong} measures the
 * opposite (compiled steady state after {@link JitWarmup}). Runs on the FTHP-J facade or, unchanged, on Open MPI's
 * own mpi.jar.
 *
 * <pre>
 * ColdPingPong [--rounds N] [--sizes n,n,...] [--blocks B]
 *     # defaults: 20000 round trips of 8, 1024, 65536, 1048576 bytes, one block of them per size
 * </pre>
 *
 * <p>The sizes run in the order given, each after a barrier, as {@code B} blocks of {@code N} round trips back to
 * back, each block timed: one line per size from rank 0, {@code coldpingpong <bytes> <oneway_us> <first_tenth_us>
 * <last_tenth_us>} of the first block (the strict figure: what a program's first messages of that size cost), the
 * one-way time being the block's time / rounds / 2, and the tenths the same over the block's first and last tenth
 * of round trips (where compilation shows); then one line per size, {@code coldtenths <bytes> <us> x 10}, the
 * one-way time of each tenth of the first block in order (how long the compiling lasts); with more than one block,
 * one line per size, {@code coldbest <bytes> <oneway_us> <blocks>}, the fastest block's one-way time (a "best of B
 * runs, no other warm-up" figure, the later blocks running on whatever the first compiled); then
 * {@code coldjit <ms>}, the CPU time rank 0's JIT compiler threads used over each size's barrier and first
 * block ({@link JitCpu}; not printed without /proc). Ranks beyond 1 only join the barriers. Printed at the end, so the
 * formatting classes load outside the timed blocks.
 */
public final class ColdPingPong {
    static final int[] SIZES = {8, 1024, 65536, 1048576};
    static final int ROUNDS = 20_000;
    static final int TENTHS = 10;
    private static final int TAG = 1;

    private ColdPingPong() {}

    public static void main(String[] args) throws MPIException {
        Options options = Options.parse(args);
        if (options == null) {
            System.err.println("usage: ColdPingPong [--rounds N (a positive multiple of 10)] [--sizes n,n,...]"
                    + " [--blocks B (positive)]");
            System.exit(2);
        }
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        if (comm.getSize() < 2) {
            if (rank == 0) System.err.println("ColdPingPong needs at least 2 ranks");
            MPI.Finalize();
            System.exit(2);
        }
        int max = Arrays.stream(options.sizes).max().orElse(0);
        byte[] buf = new byte[max];
        Arrays.fill(buf, (byte) 1);
        int perTenth = options.rounds / TENTHS;
        double[][] tenths = new double[options.sizes.length][TENTHS];
        double[] best = new double[options.sizes.length];
        double jitBefore = JitCpu.millis();
        double jitMillis = 0;
        for (int s = 0; s < options.sizes.length; s++) {
            double jitAtSize = JitCpu.millis();
            comm.barrier();
            double t = MPI.wtime();
            for (int k = 0; k < TENTHS; k++) {
                loop(comm, rank, buf, options.sizes[s], perTenth);
                double now = MPI.wtime();
                tenths[s][k] = now - t;
                t = now;
            }
            jitMillis += JitCpu.millis() - jitAtSize;
            best[s] = Arrays.stream(tenths[s]).sum();
            t = MPI.wtime();
            for (int b = 1; b < options.blocks; b++) {
                loop(comm, rank, buf, options.sizes[s], options.rounds);
                double now = MPI.wtime();
                best[s] = Math.min(best[s], now - t);
                t = now;
            }
        }
        if (rank == 0) {
            for (int s = 0; s < options.sizes.length; s++) {
                double total = Arrays.stream(tenths[s]).sum();
                System.out.printf(Locale.ROOT, "coldpingpong %d %.4f %.4f %.4f%n", options.sizes[s],
                        oneWayMicros(total, options.rounds), oneWayMicros(tenths[s][0], perTenth),
                        oneWayMicros(tenths[s][TENTHS - 1], perTenth));
            }
            for (int s = 0; s < options.sizes.length; s++) {
                StringBuilder line = new StringBuilder("coldtenths ").append(options.sizes[s]);
                for (double tenth : tenths[s]) {
                    line.append(String.format(Locale.ROOT, " %.3f", oneWayMicros(tenth, perTenth)));
                }
                System.out.println(line);
            }
            for (int s = 0; options.blocks > 1 && s < options.sizes.length; s++) {
                System.out.printf(Locale.ROOT, "coldbest %d %.4f %d%n", options.sizes[s],
                        oneWayMicros(best[s], options.rounds), options.blocks);
            }
            if (jitBefore >= 0) {
                System.out.printf(Locale.ROOT, "coldjit %.0f%n", jitMillis);
            }
            System.out.flush();
        }
        MPI.Finalize();
    }

    static double oneWayMicros(double seconds, int roundTrips) {
        return seconds / roundTrips / 2 * 1e6;
    }

    private static void loop(Intracomm comm, int rank, byte[] buf, int n, int rounds) throws MPIException {
        for (int i = 0; i < rounds; i++) {
            if (rank == 0) {
                comm.send(buf, n, MPI.BYTE, 1, TAG);
                comm.recv(buf, n, MPI.BYTE, 1, TAG);
            } else if (rank == 1) {
                comm.recv(buf, n, MPI.BYTE, 0, TAG);
                comm.send(buf, n, MPI.BYTE, 0, TAG);
            }
        }
    }

    /**
     * The command line: round trips per block (a multiple of {@link #TENTHS}), the sizes, in bytes, and how many
     * blocks of each size.
     */
    record Options(int rounds, int[] sizes, int blocks) {

        /** The options, or null when an argument is unknown, malformed or out of range. */
        static Options parse(String[] args) {
            int rounds = ROUNDS;
            int[] sizes = SIZES;
            int blocks = 1;
            try {
                for (int i = 0; i < args.length; i++) {
                    switch (args[i]) {
                        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                        case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt)
                                .toArray();
                        case "--blocks" -> blocks = Integer.parseInt(args[++i]);
                        default -> {
                            return null;
                        }
                    }
                }
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                return null;
            }
            if (rounds <= 0 || rounds % TENTHS != 0 || blocks <= 0 || sizes.length == 0
                    || Arrays.stream(sizes).anyMatch(n -> n < 0)) {
                return null;
            }
            return new Options(rounds, sizes, blocks);
        }
    }
}

package org.fthp.bench;

import mpi.MPI;
import mpi.MPIException;

/**
 * The program bench/call-count.sh runs under its JVMTI agent (bench/src/main/c/call_count.c): one rank sends a
 * {@code byte[]} to itself and receives it, {@code ROUNDS} times between the agent's markers, after 100 round trips
 * outside them (the path's one-time set-up is not counted). With {@code --sends} only the sends are counted (the
 * receives follow, outside the markers).
 *
 * <pre>
 * CallCount [--sends] [--rounds N] [--size BYTES]     # one rank, Open MPI (a send to self completes up to 512 B)
 * </pre>
 */
public final class CallCount {

    private static final int TAG = 3;

    private CallCount() {}

    /** The agent counts from this method's entry on. */
    static void callCountStart() {}

    /** The agent stops counting at this method's entry. */
    static void callCountStop() {}

    public static void main(String[] args) throws MPIException {
        boolean sendsOnly = false;
        int rounds = 100;
        int size = 8;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sends" -> sendsOnly = true;
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--size" -> size = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: CallCount [--sends] [--rounds N] [--size BYTES]");
                    System.exit(2);
                }
            }
        }
        MPI.Init(args);
        byte[] buf = new byte[Math.max(size, 1)];
        for (int i = 0; i < 100; i++) {
            MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 0, TAG);
            MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, TAG);
        }
        callCountStart();
        for (int i = 0; i < rounds; i++) {
            MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 0, TAG);
            if (!sendsOnly) {
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, TAG);
            }
        }
        callCountStop();
        if (sendsOnly) {
            for (int i = 0; i < rounds; i++) {
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, TAG);
            }
        }
        MPI.Finalize();
    }
}

package org.fthp.it.programs;

import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A replicated job's send log stays within {@code --log-limit} when the program never makes a blocking send:
 * each of {@code iterations} (default 400) rounds sends {@code bytes} (default 32 KiB) to itself with sendRecv
 * (only its own replica acknowledges that stream) and around a ring with iSend, iRecv and waitAll. Nothing
 * else holds a computational copy back for the replicas, which run behind it. Every message's bytes are
 * checked; rank 0 prints "LogBound OK np=N".
 */
public final class LogBound {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 32 << 10;
        Check.runAll(MPI.COMM_WORLD, "LogBound", () -> {
            int rank = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            int right = (rank + 1) % size;
            int left = (rank + size - 1) % size;
            byte[] mine = new byte[bytes];
            byte[] back = new byte[bytes];
            ByteBuffer out = ByteBuffer.allocateDirect(bytes);
            ByteBuffer in = ByteBuffer.allocateDirect(bytes);
            for (int it = 0; it < iterations; it++) {
                fill(mine, rank, it);
                MPI.COMM_WORLD.sendRecv(mine, bytes, MPI.BYTE, rank, 1, back, bytes, MPI.BYTE, rank, 1);
                expect(back, rank, it, "to itself");
                out.clear();
                out.put(mine).flip();
                Request[] ring = {MPI.COMM_WORLD.iRecv(in, bytes, MPI.BYTE, left, 2),
                        MPI.COMM_WORLD.iSend(out, bytes, MPI.BYTE, right, 2)};
                Request.waitAll(ring);
                in.get(0, back);
                expect(back, left, it, "from the left");
            }
        });
        MPI.Finalize();
    }

    private static void fill(byte[] b, int rank, int it) {
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (k * 7 + rank * 31 + it);
        }
    }

    private static void expect(byte[] b, int rank, int it, String what) {
        for (int k = 0; k < b.length; k++) {
            if (b[k] != (byte) (k * 7 + rank * 31 + it)) {
                Check.that(false, "iteration " + it + " " + what + ": byte " + k + " is " + b[k]);
            }
        }
    }
}

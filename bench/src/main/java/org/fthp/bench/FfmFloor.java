package org.fthp.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;

import org.fthp.empi.Empi;

/**
 * The floor of a Java binding that keeps FTHP-J's rule (no blocking native call on the data path):
 * a 2-rank ping-pong of small {@code byte[]} messages straight over the EMPI downcalls, each send
 * and receive an {@code MPI_Isend}/{@code MPI_Irecv} completed by an {@code MPI_Test} loop, the
 * array copied into and out of one preallocated native buffer. No header, no staging pool, no
 * operation objects, no checks: what is left is the downcalls and the copies. Compare its one-way
 * time with native C's (bench/run.sh's {@code pingpong.c}, and its {@code --nonblocking} form)
 * and with the facade's ({@link PingPong}).
 *
 * <p>Run under plain mpirun, 2 ranks: {@code mpirun -np 2 java --enable-native-access=ALL-UNNAMED
 * -cp fthp-mpi.jar:fthp-bench.jar org.fthp.bench.FfmFloor}. Prints {@code ffmfloor <bytes> <one-way µs>}.
 */
public final class FfmFloor {

    private static final int[] SIZES = {8, 64, 512};
    private static final int WARM = 300_000;
    private static final int SLICES = 10;
    private static final int PER_SLICE = 20_000;

    private FfmFloor() {}

    public static void main(String[] args) {
        Arena arena = Arena.ofConfined();
        MemorySegment provided = arena.allocate(ValueLayout.JAVA_INT);
        Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, 0, provided);
        MemorySegment rankOut = arena.allocate(ValueLayout.JAVA_INT);
        Empi.commRank(Empi.COMM_WORLD, rankOut);
        int rank = rankOut.get(ValueLayout.JAVA_INT, 0);
        int peer = rank ^ 1;
        MemorySegment request = arena.allocate(Empi.HANDLE_BYTES, 8);
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = arena.allocate(Empi.STATUS_BYTES, 8);
        MemorySegment staging = arena.allocate(4096, 64);
        byte[] array = new byte[4096];
        Arrays.fill(array, (byte) 1);
        double[][] slices = new double[SIZES.length][SLICES];
        for (int s = 0; s < SIZES.length; s++) {
            int n = SIZES[s];
            loop(rank, peer, n, WARM, array, staging, request, flag, status);
            for (int k = 0; k < SLICES; k++) {
                long t0 = System.nanoTime();
                loop(rank, peer, n, PER_SLICE, array, staging, request, flag, status);
                slices[s][k] = (System.nanoTime() - t0) / 1e3 / PER_SLICE / 2;
            }
        }
        if (rank == 0) {
            for (int s = 0; s < SIZES.length; s++) {
                double[] t = slices[s];
                Arrays.sort(t);
                System.out.printf(Locale.ROOT, "ffmfloor %d %.4f%n", SIZES[s], (t[SLICES / 2 - 1] + t[SLICES / 2]) / 2);
            }
        }
        Empi.finalizeMpi();
    }

    private static void loop(int rank, int peer, int n, int iters, byte[] array, MemorySegment staging,
                             MemorySegment request, MemorySegment flag, MemorySegment status) {
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                send(peer, n, array, staging, request, flag, status);
                recv(peer, n, array, staging, request, flag, status);
            } else {
                recv(peer, n, array, staging, request, flag, status);
                send(peer, n, array, staging, request, flag, status);
            }
        }
    }

    private static void send(int peer, int n, byte[] array, MemorySegment staging, MemorySegment request,
                             MemorySegment flag, MemorySegment status) {
        MemorySegment.copy(array, 0, staging, ValueLayout.JAVA_BYTE, 0, n);
        Empi.isend(staging, n, Empi.BYTE, peer, 1, Empi.COMM_WORLD, request);
        finish(request, flag, status);
    }

    private static void recv(int peer, int n, byte[] array, MemorySegment staging, MemorySegment request,
                             MemorySegment flag, MemorySegment status) {
        Empi.irecv(staging, n, Empi.BYTE, peer, 1, Empi.COMM_WORLD, request);
        finish(request, flag, status);
        MemorySegment.copy(staging, ValueLayout.JAVA_BYTE, 0, array, 0, n);
    }

    private static void finish(MemorySegment request, MemorySegment flag, MemorySegment status) {
        do {
            Empi.test(request, flag, status);
        } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
    }
}

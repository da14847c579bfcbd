package org.fthp.it.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

import static org.fthp.it.programs.RepairWorkload.compute;
import static org.fthp.it.programs.RepairWorkload.mix;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * A point-to-point workload to kill processes under: every iteration a ring
 * shift (sendRecv), a nonblocking halo exchange with both neighbours, and a
 * wildcard gather to rank 0 answered by rank 0 to everyone, then some
 * computation. Every value depends on every earlier one, so a lost,
 * duplicated or reordered message changes the final line. Rank 0 prints a
 * line every 20 iterations, so a promotion that loses or repeats output
 * shows.
 *
 * <p>Arguments: iterations (default 2000), microseconds of computation per
 * iteration (default 2000).
 */
public final class RepairP2p {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        long computeNanos = (args.length > 1 ? Long.parseLong(args[1]) : 2000) * 1000;
        var world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        long state = 0x9E3779B97F4A7C15L * (rank + 1);
        IntBuffer haloOut = ByteBuffer.allocateDirect(4 * 8).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer haloIn = ByteBuffer.allocateDirect(4 * 8).order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int it = 0; it < iterations; it++) {
            long[] ring = {state};
            long[] fromLeft = new long[1];
            world.sendRecv(ring, 1, MPI.LONG, right, 1, fromLeft, 1, MPI.LONG, left, 1);
            state = mix(state, fromLeft[0]);

            for (int i = 0; i < 4; i++) {
                haloOut.put(i, (int) (state >>> (8 * i)) ^ it);
                haloOut.put(4 + i, (int) (state >>> (8 * i + 32)) + it);
            }
            Request[] halo = {
                    world.iRecv(haloIn.position(0).slice(), 4, MPI.INT, left, 2),
                    world.iRecv(haloIn.position(4).slice(), 4, MPI.INT, right, 3),
                    world.iSend(haloOut.position(0).slice(), 4, MPI.INT, right, 2),
                    world.iSend(haloOut.position(4).slice(), 4, MPI.INT, left, 3)};
            Request.waitAll(halo);
            for (int i = 0; i < 8; i++) {
                state = mix(state, haloIn.get(i));
            }

            long[] contribution = {state & 0xffff};
            long[] answer = new long[1];
            if (rank == 0) {
                long sum = contribution[0];
                long[] got = new long[1];
                for (int k = 1; k < size; k++) {
                    Status s = world.recv(got, 1, MPI.LONG, MPI.ANY_SOURCE, 4);
                    sum += got[0] * (s.getSource() + 1);
                }
                answer[0] = sum;
                for (int k = 1; k < size; k++) {
                    world.send(answer, 1, MPI.LONG, k, 5);
                }
            } else {
                world.send(contribution, 1, MPI.LONG, 0, 4);
                world.recv(answer, 1, MPI.LONG, 0, 5);
            }
            state = mix(state, answer[0]);
            state = compute(state, computeNanos);
            if (rank == 0 && it % 20 == 0) {
                // output while processes die: a promoted replica must continue it exactly
                System.out.printf("RepairP2p iteration %d answer %d%n", it, answer[0]);
            }
        }
        long[] all = new long[size];
        if (rank == 0) {
            all[0] = state;
            for (int k = 1; k < size; k++) {
                long[] got = new long[1];
                world.recv(got, 1, MPI.LONG, k, 6);
                all[k] = got[0];
            }
            for (int k = 0; k < size; k++) {
                System.out.printf("RepairP2p rank %d state %016x%n", k, all[k]);
            }
            System.out.println("RepairP2p OK");
        } else {
            world.send(new long[] {state}, 1, MPI.LONG, 0, 6);
        }
        MPI.Finalize();
    }
}

package org.fthp.it.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

import static org.fthp.it.programs.RepairWorkload.compute;
import static org.fthp.it.programs.RepairWorkload.mix;

import mpi.MPI;
import mpi.Request;

/**
 * Collectives to kill processes under: every iteration a small allreduce
 * (recursive doubling), a large one (native), a broadcast from a rotating
 * root, an allgather, an alltoall, a reduce to a rotating root, a barrier, and
 * a nonblocking allreduce overlapped with a ring shift, then some
 * computation. Every result feeds the next iteration, so a collective lost,
 * repeated or answered twice changes the final line.
 *
 * <p>Arguments: iterations (default 1500), microseconds of computation per
 * iteration (default 2000).
 */
public final class RepairCollectives {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        long computeNanos = (args.length > 1 ? Long.parseLong(args[1]) : 2000) * 1000;
        var world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        long state = 0x2545F4914F6CDD1DL * (rank + 3);
        LongBuffer nbIn = ByteBuffer.allocateDirect(8 * 4).order(ByteOrder.nativeOrder()).asLongBuffer();
        LongBuffer nbOut = ByteBuffer.allocateDirect(8 * 4).order(ByteOrder.nativeOrder()).asLongBuffer();
        for (int it = 0; it < iterations; it++) {
            long[] small = {state, state >>> 7};
            world.allReduce(small, 2, MPI.LONG, MPI.SUM);
            state = mix(state, small[0] ^ small[1]);

            long[] large = new long[3000];
            for (int i = 0; i < large.length; i++) {
                large[i] = state + i * (long) (rank + 1);
            }
            world.allReduce(large, large.length, MPI.LONG, MPI.BXOR);
            state = mix(state, large[it % large.length]);

            long[] b = {state};
            world.bcast(b, 1, MPI.LONG, it % size);
            state = mix(state, b[0]);

            long[] mine = {state};
            long[] all = new long[size];
            world.allGather(mine, 1, MPI.LONG, all, 1, MPI.LONG);
            for (long v : all) {
                state = mix(state, v);
            }

            long[] send = new long[size];
            long[] recv = new long[size];
            for (int k = 0; k < size; k++) {
                send[k] = state ^ k;
            }
            world.allToAll(send, 1, MPI.LONG, recv, 1, MPI.LONG);
            for (long v : recv) {
                state = mix(state, v);
            }

            long[] red = {state & 0xffffff};
            long[] total = new long[1];
            int root = (it * 7) % size;
            world.reduce(red, total, 1, MPI.LONG, MPI.SUM, root);
            if (rank == root) {
                state = mix(state, total[0]);
            }
            world.barrier();

            for (int i = 0; i < 4; i++) {
                nbIn.put(i, state + i);
            }
            Request r = world.iAllReduce(nbIn, nbOut, 4, MPI.LONG, MPI.MAX);
            long[] ring = {state};
            long[] got = new long[1];
            world.sendRecv(ring, 1, MPI.LONG, (rank + 1) % size, 9, got, 1, MPI.LONG, (rank + size - 1) % size, 9);
            r.waitFor();
            state = mix(mix(state, got[0]), nbOut.get(it % 4));
            state = compute(state, computeNanos);
        }
        RepairWorkload.reportStates(world, "RepairCollectives", state);
        MPI.Finalize();
    }
}

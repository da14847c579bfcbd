package org.fthp.it.programs;

import java.nio.LongBuffer;

import static org.fthp.it.programs.RepairWorkload.compute;
import static org.fthp.it.programs.RepairWorkload.mix;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Communicators a failure only partly touches: COMM_WORLD split into a lower
 * and an upper half, and an intercommunicator between the halves. Every
 * iteration each half runs an allreduce and a nonblocking ring shift, rank i
 * of each half swaps a value with rank i of the other over the
 * intercommunicator, and COMM_WORLD runs an allreduce; then some computation.
 * A death in one half leaves the other half's communicator standing, so the
 * repair must keep that one's operations and messages as they are while it
 * rebuilds the rest. Every result feeds the next iteration.
 *
 * <p>Arguments: iterations (default 1500), microseconds of computation per
 * iteration (default 2000). Needs an even number of ranks, at least 4.
 */
public final class RepairSubcomms {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        long computeNanos = (args.length > 1 ? Long.parseLong(args[1]) : 2000) * 1000;
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        Check.that(size >= 4 && size % 2 == 0, "RepairSubcomms needs an even number of ranks, at least 4");
        int half = rank < size / 2 ? 0 : 1;
        Intracomm mine = world.split(half, rank);
        int local = mine.getRank();
        int localSize = mine.getSize();
        Intercomm across = world.createIntercomm(mine, 0, half == 0 ? size / 2 : 0, 77);
        long state = 0x9E3779B97F4A7C15L * (rank + 5);
        LongBuffer ringOut = MPI.newLongBuffer(1);
        LongBuffer ringIn = MPI.newLongBuffer(1);
        for (int it = 0; it < iterations; it++) {
            long[] sum = {state & 0xffffffffL};
            mine.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            state = mix(state, sum[0]);

            ringOut.put(0, state);
            Request recv = mine.iRecv(ringIn, 1, MPI.LONG, (local + localSize - 1) % localSize, 3);
            Request send = mine.iSend(ringOut, 1, MPI.LONG, (local + 1) % localSize, 3);
            long[] other = new long[1];
            across.sendRecv(new long[] {state ^ it}, 1, MPI.LONG, local, 5, other, 1, MPI.LONG, local, 5);
            send.waitFor();
            recv.waitFor();
            state = mix(mix(state, ringIn.get(0)), other[0]);

            long[] all = {state >>> 3};
            world.allReduce(all, 1, MPI.LONG, MPI.BXOR);
            state = mix(state, all[0]);
            state = compute(state, computeNanos);
        }
        RepairWorkload.reportStates(world, "RepairSubcomms", state);
        across.free();
        mine.free();
        MPI.Finalize();
    }
}

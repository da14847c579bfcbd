package org.fthp.it.programs;

import static org.fthp.it.programs.RepairWorkload.compute;
import static org.fthp.it.programs.RepairWorkload.mix;

import mpi.Intracomm;
import mpi.MPI;

/**
 * Communicators made and freed all the time: every iteration splits
 * COMM_WORLD into its even and odd ranks, runs an allreduce and a ring shift
 * on the half, frees it, and runs an allreduce on COMM_WORLD. Replicas run
 * behind their twins, so at almost any moment some copy has freed a half
 * that another copy of a member still uses; a death then must neither hang
 * the repair (a copy that let go never joins a rebuild) nor lose a message.
 *
 * <p>Arguments: iterations (default 200), microseconds of computation per
 * iteration (default 2000). Needs at least 4 ranks.
 */
public final class RepairCommFree {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        long computeNanos = (args.length > 1 ? Long.parseLong(args[1]) : 2000) * 1000;
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        Check.that(size >= 4, "RepairCommFree needs at least 4 ranks");
        long state = 0x9E3779B97F4A7C15L * (rank + 11);
        for (int it = 0; it < iterations; it++) {
            Intracomm half = world.split(rank % 2, rank);
            int local = half.getRank();
            int localSize = half.getSize();
            long[] sum = {state & 0xffffffffL};
            half.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            state = mix(state, sum[0]);
            long[] in = new long[1];
            half.sendRecv(new long[] {state ^ it}, 1, MPI.LONG, (local + 1) % localSize, 4,
                    in, 1, MPI.LONG, (local + localSize - 1) % localSize, 4);
            state = mix(state, in[0]);
            half.free();
            long[] all = {state >>> 5};
            world.allReduce(all, 1, MPI.LONG, MPI.BXOR);
            state = compute(mix(state, all[0]), computeNanos);
        }
        RepairWorkload.reportStates(world, "RepairCommFree", state);
        MPI.Finalize();
    }
}

package org.fthp.it.programs;

import static org.fthp.it.programs.RepairWorkload.compute;
import static org.fthp.it.programs.RepairWorkload.mix;

import mpi.MPI;

/**
 * A long stretch of computation outside MPI between two phases of ring
 * shifts: a failure during the stretch must be repaired by the repair
 * thread while every rank computes, not at the next MPI call.
 *
 * <p>With "one", only rank 1 computes through the stretch and then sends its
 * state to every other rank, which waits for it in a blocking receive: that
 * receive is in flight through every repair during the stretch, and must
 * complete with rank 1's message however many there were.
 *
 * <p>Arguments: iterations per phase (default 200), seconds of computation
 * between the phases (default 8), "all" (default) or "one".
 */
public final class RepairWhileComputing {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        double stretch = args.length > 1 ? Double.parseDouble(args[1]) : 8;
        boolean one = args.length > 2 && args[2].equals("one");
        var world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        long state = 0x9E3779B97F4A7C15L * (rank + 1);
        state = shifts(world, rank, size, state, iterations);
        if (!one) {
            state = compute(state, (long) (stretch * 1e9));
        } else if (rank == 1) {
            state = compute(state, (long) (stretch * 1e9));
            for (int k = 0; k < size; k++) {
                if (k != 1) {
                    world.send(new long[] {state}, 1, MPI.LONG, k, 7);
                }
            }
        } else {
            long[] got = new long[1];
            world.recv(got, 1, MPI.LONG, 1, 7);
            state = mix(state, got[0]);
        }
        state = shifts(world, rank, size, state, iterations);
        RepairWorkload.reportStates(world, "RepairWhileComputing", state);
        MPI.Finalize();
    }

    private static long shifts(mpi.Intracomm world, int rank, int size, long state, int iterations)
            throws mpi.MPIException {
        for (int it = 0; it < iterations; it++) {
            long[] got = new long[1];
            world.sendRecv(new long[] {state}, 1, MPI.LONG, (rank + 1) % size, 1, got, 1, MPI.LONG,
                    (rank + size - 1) % size, 1);
            state = mix(state, got[0]);
        }
        return state;
    }
}

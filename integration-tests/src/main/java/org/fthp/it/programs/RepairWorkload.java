package org.fthp.it.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/** What the repair test programs share: a mixing function that makes every value depend on every earlier one, and busy time that never changes a result. */
final class RepairWorkload {

    static volatile long sink;

    private RepairWorkload() {}

    static long mix(long a, long b) {
        long x = a ^ (b + 0x9E3779B97F4A7C15L + (a << 6) + (a >>> 2));
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        return x ^ (x >>> 29);
    }

    /**
     * Gathers every rank's final state to rank 0, which prints one line per
     * rank and "{@code <program> OK}": the output a kill must not change.
     */
    static void reportStates(Intracomm world, String program, long state) throws MPIException {
        long[] all = new long[world.getSize()];
        world.gather(new long[] {state}, 1, MPI.LONG, all, 1, MPI.LONG, 0);
        if (world.getRank() == 0) {
            for (int k = 0; k < all.length; k++) {
                System.out.printf("%s rank %d state %016x%n", program, k, all[k]);
            }
            System.out.println(program + " OK");
        }
    }

    /** Busy for about {@code nanos}; what it computes is thrown away, so timing never changes a result. */
    static long compute(long state, long nanos) {
        long end = System.nanoTime() + nanos;
        long x = state;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 64; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
        return state;
    }
}

package org.fthp.bench;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;

/**
 * How long a difference between twins goes unseen (bench/sdc.sh PARTS=latency; not a test). Each iteration is busy
 * for MS milliseconds, passes one value of the rank's state round the ring and takes a snapshot, where the twins
 * compare their sends between checkpoints once --sdc-interval has passed since their last comparison. A message
 * flipped by {@code fthp-run --corrupt R:cmp:msg#C} is found at the next comparison; the driver times it from the
 * flip's stderr line to the detection's. Without a flip, rank 0 prints the loop's seconds (what the comparisons
 * cost at an interval: {@code SdcLatency loop S s}).
 *
 * <p>Arguments: ITERATIONS MS.
 */
public final class SdcLatency {

    private SdcLatency() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = Integer.parseInt(args[0]);
        long nanos = Long.parseLong(args[1]) * 1_000_000L;
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        double[] state = {rank};
        double[] in = new double[1];
        Checkpoint.register("state", state);
        double t0 = MPI.wtime();
        for (int i = 0; i < iterations; i++) {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            world.sendRecv(state, 1, MPI.DOUBLE, (rank + 1) % size, 0, in, 1, MPI.DOUBLE, (rank + size - 1) % size, 0);
            state[0] = 0.5 * (state[0] + in[0]) + 1;
            Checkpoint.snapshot();
        }
        double seconds = MPI.wtime() - t0;
        if (rank == 0) {
            System.out.printf(java.util.Locale.ROOT, "SdcLatency loop %.4f s state %s%n", seconds, state[0]);
        }
        MPI.Finalize();
    }
}

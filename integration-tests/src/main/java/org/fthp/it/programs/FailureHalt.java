package org.fthp.it.programs;

import mpi.MPI;

/**
 * Rank 1 dies abruptly after the first barrier (no Finalize, no goodbye to its
 * coordinator) while every other rank waits for a message from it that never
 * comes: only the failure machinery can end this job. With the argument
 * {@code wait}, rank 1 waits too, for fthp-run's failure injector to kill it.
 */
public final class FailureHalt {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.barrier();
        boolean waitForKill = args.length > 0 && args[0].equals("wait");
        if (rank == 1 && waitForKill) {
            System.out.println("rank 1 waits to be killed");
            System.out.flush();
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 99);
        } else if (rank == 1) {
            System.out.println("rank 1 dies now");
            System.out.flush();
            Runtime.getRuntime().halt(9);
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 99);
        System.out.println("NOT REACHED");
        MPI.Finalize();
    }
}

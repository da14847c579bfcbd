package org.fthp.it.programs;

import mpi.MPI;

/**
 * Rank 1 dies abruptly after the first barrier (no Finalize, no goodbye to its
 * coordinator) while every other rank waits for a message from it that never
 * comes: only the failure machinery can end this job.
 */
public final class FailureHalt {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.barrier();
        if (rank == 1) {
            System.out.println("rank 1 dies now");
            System.out.flush();
            Runtime.getRuntime().halt(9);
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 99);
        System.out.println("NOT REACHED");
        MPI.Finalize();
    }
}

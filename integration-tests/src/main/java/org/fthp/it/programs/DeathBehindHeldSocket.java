package org.fthp.it.programs;

import mpi.MPI;

/**
 * Rank 1 dies by SIGKILL after registering, but a child it started first holds its descriptors, so its
 * connection to the coordinator stays open: only the report of mpirun's proxy library can tell the coordinators
 * that it died. Every other rank waits for a message from it that never comes. Prints the holder's pid so the
 * test can end it.
 */
public final class DeathBehindHeldSocket {

    public static void main(String[] args) throws Throwable {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.barrier();
        if (rank == 1) {
            long holder = SelfKill.spawnDescriptorHolder(60);
            System.out.println("holder pid " + holder);
            System.out.println("rank 1 pid " + ProcessHandle.current().pid() + " dies now");
            System.out.flush();
            SelfKill.now();
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 99);
        System.out.println("NOT REACHED");
        MPI.Finalize();
    }
}

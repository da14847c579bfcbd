package org.fthp.it.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * With the default error handler (MPI.ERRORS_ARE_FATAL) a send to an invalid
 * rank on the last rank must abort the whole job, including the ranks blocked
 * in a receive that will never be matched. Nothing after the bad call may run.
 * Optional argument "recv" makes the bad call an invalid-source receive instead.
 */
public final class BadInputFatal {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(MPI.COMM_WORLD.getErrhandler() != null, "default errhandler");
        System.out.println("STARTED rank " + rank);
        System.out.flush();
        MPI.COMM_WORLD.barrier();
        if (rank == size - 1) {
            if (args.length > 0 && args[0].equals("recv")) {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, size + 1, 0);
            } else {
                MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, size, 0);
            }
            System.out.println("NOT ABORTED rank " + rank);
        } else {
            // never matched: only an abort of the whole job ends this rank
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 12345);
            System.out.println("NOT ABORTED rank " + rank);
        }
        MPI.Finalize();
        System.out.println("FINALIZED rank " + rank);
    }
}

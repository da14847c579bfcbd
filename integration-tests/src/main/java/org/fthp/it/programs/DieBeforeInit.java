package org.fthp.it.programs;

import mpi.MPI;

/**
 * Native rank 1 dies by SIGKILL before it calls MPI.Init, so it never registers with a coordinator; every other
 * rank waits in MPI.Init for it. mpirun's proxy library hides the death from mpirun, so only the coordinators,
 * told of it by that library, can end this job. With the argument {@code exit} it exits with status 3 instead (a
 * JVM that fails before registering: on several hosts mpirun's recovery mode ignores that exit, and only the
 * library's report of it ends the job).
 */
public final class DieBeforeInit {

    public static void main(String[] args) throws Throwable {
        // Open MPI (MPICH's hydra: PMI_RANK) sets this before the program starts; MPI.Init is exactly what rank 1
        // must not reach.
        if ("1".equals(System.getenv("OMPI_COMM_WORLD_RANK")) || "1".equals(System.getenv("PMI_RANK"))) {
            System.out.println("rank 1 pid " + ProcessHandle.current().pid() + " dies before MPI.Init");
            System.out.flush();
            if (args.length > 0 && args[0].equals("exit")) {
                System.exit(3);
            }
            SelfKill.now();
        }
        MPI.Init(args);
        MPI.COMM_WORLD.barrier();
        System.out.println("NOT REACHED");
        MPI.Finalize();
    }
}

package org.fthp.examples;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * The example the README runs: every rank integrates its share of
 * 4/(1+x^2) on [0,1], the partial sums are reduced to pi, and a token goes
 * once round the ring so point-to-point is exercised too. Uses only the
 * {@code mpi} API, so it runs unchanged on Open MPI's own Java binding.
 */
public final class RingPi {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        long intervals = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;

        double t0 = MPI.wtime();
        double h = 1.0 / intervals;
        double partial = 0;
        for (long i = rank; i < intervals; i += size) {
            double x = h * (i + 0.5);
            partial += 4.0 / (1.0 + x * x);
        }
        double[] pi = new double[1];
        world.reduce(new double[] {partial * h}, pi, 1, MPI.DOUBLE, MPI.SUM, 0);

        int[] token = {rank == 0 ? 1 : 0};
        if (size > 1) {
            if (rank == 0) {
                world.send(token, 1, MPI.INT, 1, 42);
                Status st = world.recv(token, 1, MPI.INT, size - 1, 42);
                token[0] = token[0] + 0 * st.getSource();
            } else {
                world.recv(token, 1, MPI.INT, rank - 1, 42);
                token[0]++;
                world.send(token, 1, MPI.INT, (rank + 1) % size, 42);
            }
        }
        double elapsed = MPI.wtime() - t0;

        if (rank == 0) {
            System.out.printf("pi = %.15f (error %.2e) from %d intervals on %d ranks%n",
                    pi[0], Math.abs(pi[0] - Math.PI), intervals, size);
            System.out.printf("token went round the ring through %d ranks; %.3f s%n", token[0], elapsed);
        }
        MPI.Finalize();
    }
}

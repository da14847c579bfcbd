package org.fthp.it.programs;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;
import org.fthp.checkpoint.api.Checkpointable;
import org.fthp.checkpoint.api.ResilientBody;

/**
 * {@link RestartIterations} with its whole body after {@code MPI.Init} inside {@code Checkpoint.resilient}: a job
 * with a spare survives a lost rank by rolling back in place, and prints exactly what a run without failures
 * prints. Same arguments as RestartIterations, and optionally {@code --stale} after them: the first run of the body
 * keeps a duplicate of COMM_WORLD in a static field, and a rerun after a rollback checks that using it is a clear
 * ERR_COMM error, and says so on stderr; or {@code --swallow}: rank 0 catches the rollback in its main loop and stays
 * there (a program that swallows it), so the job must fall back to a relaunch.
 */
public final class ResilientIterations {

    /** The main loop's scalars, saved as an object. */
    static final class Loop implements Checkpointable {
        int iteration;
        long history;

        @Override
        public void write(DataOutput out) throws IOException {
            out.writeInt(iteration);
            out.writeLong(history);
        }

        @Override
        public void read(DataInput in) throws IOException {
            iteration = in.readInt();
            history = in.readLong();
        }
    }

    /** With --stale: a communicator made by the body's first run, kept across a rollback (which makes it stale). */
    private static Intracomm kept;

    private ResilientIterations() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Checkpoint.resilient(start -> body(args, start));
        MPI.Finalize();
    }

    private static void body(String[] args, ResilientBody.Start start) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        boolean stale = args.length > 4 && args[4].equals("--stale");
        boolean swallow = args.length > 4 && args[4].equals("--swallow");
        if (stale && start == ResilientBody.Start.FIRST) {
            kept = world.dup();
            // an error on it is an exception here, not the end of the job
            kept.setErrhandler(MPI.ERRORS_RETURN);
        }
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        long busyNanos = (args.length > 1 ? Long.parseLong(args[1]) : 40) * 1_000_000L;
        int forceEvery = args.length > 3 && args[2].equals("--force") ? Integer.parseInt(args[3]) : 0;

        double[] field = new double[256];
        for (int i = 0; i < field.length; i++) {
            field[i] = rank + i * 1e-3;
        }
        Loop loop = new Loop();
        Checkpoint.register("field", field);
        Checkpoint.register("loop", loop);
        if (rank == 0) {
            System.out.println("ResilientIterations: " + size + " ranks, " + iterations + " iterations");
        }
        if (Checkpoint.isRestart()) {
            Checkpoint.recover();
        }
        if (stale && start == ResilientBody.Start.ROLLBACK) {
            try {
                kept.barrier();
                throw new IllegalStateException("a communicator made before the rollback was used after it");
            } catch (MPIException e) {
                if (e.getErrorClass() != MPI.ERR_COMM) {
                    throw e;
                }
                System.err.println("ResilientIterations rank " + world.getRank() + ": " + e.getMessage());
            }
        }
        double[] left = new double[1];
        double[] right = new double[1];
        double[] sum = new double[1];
        try {
            while (loop.iteration < iterations) {
                int next = (rank + 1) % size;
                int prev = (rank + size - 1) % size;
                world.sendRecv(new double[] {field[field.length - 1]}, 1, MPI.DOUBLE, next, 1, left, 1, MPI.DOUBLE,
                        prev, 1);
                world.sendRecv(new double[] {field[0]}, 1, MPI.DOUBLE, prev, 2, right, 1, MPI.DOUBLE, next, 2);
                double local = 0;
                for (int i = 0; i < field.length; i++) {
                    double l = i == 0 ? left[0] : field[i - 1];
                    double r = i == field.length - 1 ? right[0] : field[i + 1];
                    field[i] = 0.25 * l + 0.5 * field[i] + 0.25 * r + 1e-3 * Math.sin(loop.iteration + i);
                    local += field[i];
                }
                world.allReduce(new double[] {local}, sum, 1, MPI.DOUBLE, MPI.SUM);
                loop.history = RepairWorkload.mix(loop.history, Double.doubleToLongBits(sum[0]));
                if (rank == 0) {
                    System.out.printf("iteration %d sum %016x history %016x%n", loop.iteration,
                            Double.doubleToLongBits(sum[0]), loop.history);
                }
                RepairWorkload.compute(0, busyNanos);
                // the iteration is done: a restart from here goes on with the next one
                loop.iteration++;
                if (forceEvery > 0 && loop.iteration % forceEvery == 0) {
                    Checkpoint.checkpoint();
                } else {
                    Checkpoint.snapshot();
                }
            }
        } catch (Error e) {
            if (!swallow || rank != 0) {
                throw e;
            }
            System.err.println("ResilientIterations rank 0 swallows: " + e.getMessage());
            try {
                Thread.sleep(60_000);   // ended long before by the relaunch
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
        long state = loop.history;
        for (double v : field) {
            state = RepairWorkload.mix(state, Double.doubleToLongBits(v));
        }
        RepairWorkload.reportStates(world, "ResilientIterations", state);
    }
}

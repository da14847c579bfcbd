package org.fthp.it.programs;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;
import org.fthp.checkpoint.api.Checkpointable;

/**
 * An iterative program that checkpoints (the checkpoint/restart tests): each
 * rank evolves a field that depends on its neighbours' and on a global sum
 * every iteration, rank 0 prints one line per iteration, and every iteration
 * ends at a safe point ({@code Checkpoint.snapshot()}). A run that restarts
 * from any checkpoint, or from the beginning, prints exactly what a run
 * without failures prints.
 *
 * <p>Arguments: iterations (default 60), milliseconds of busy work per
 * iteration (default 40), and optionally {@code --force K}: a forced
 * checkpoint every K iterations besides the timer's.
 */
public final class RestartIterations {

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

    private RestartIterations() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        Run run = Run.start(world, "RestartIterations", args);
        run.iterate(world);
        RepairWorkload.reportStates(world, "RestartIterations", finalState(run.loop(), run.field()));
        MPI.Finalize();
    }

    /**
     * One run's workload, from the arguments: its field and loop registered, the header printed by rank 0
     * ({@code name}), and the last committed epoch recovered when the run is a restart.
     */
    record Run(int iterations, long busyNanos, int forceEvery, double[] field, Loop loop) {

        static Run start(Intracomm world, String name, String[] args) throws MPIException {
            return start(world, name, args, false);
        }

        /** {@code handedBack}: the field comes from {@code Checkpoint.registerArray} (a resilient body's way). */
        static Run start(Intracomm world, String name, String[] args, boolean handedBack) throws MPIException {
            int rank = world.getRank();
            int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 60;
            long busyNanos = (args.length > 1 ? Long.parseLong(args[1]) : 40) * 1_000_000L;
            int forceEvery = args.length > 3 && args[2].equals("--force") ? Integer.parseInt(args[3]) : 0;
            double[] field = handedBack ? Checkpoint.registerArray("field", double[].class, 256) : new double[256];
            for (int i = 0; i < field.length; i++) {
                field[i] = rank + i * 1e-3;
            }
            Loop loop = new Loop();
            if (!handedBack) {
                Checkpoint.register("field", field);
            }
            Checkpoint.register("loop", loop);
            if (rank == 0) {
                System.out.println(name + ": " + world.getSize() + " ranks, " + iterations + " iterations");
            }
            if (Checkpoint.isRestart()) {
                Checkpoint.recover();
            }
            return new Run(iterations, busyNanos, forceEvery, field, loop);
        }

        void iterate(Intracomm world) throws MPIException {
            RestartIterations.iterate(world, field, loop, iterations, busyNanos, forceEvery);
        }
    }

    /**
     * The main loop from {@code loop.iteration} on: a ring exchange, a smoothing step, an allreduce whose sum rank 0
     * prints with the running history, and a snapshot (a forced checkpoint every {@code forceEvery} iterations).
     */
    static void iterate(Intracomm world, double[] field, Loop loop, int iterations, long busyNanos, int forceEvery)
            throws MPIException {
        int rank = world.getRank();
        int size = world.getSize();
        double[] left = new double[1];
        double[] right = new double[1];
        double[] sum = new double[1];
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
    }

    /** What every rank reports at the end: its history mixed with its field. */
    static long finalState(Loop loop, double[] field) {
        long state = loop.history;
        for (double v : field) {
            state = RepairWorkload.mix(state, Double.doubleToLongBits(v));
        }
        return state;
    }
}

package org.fthp.it.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;

/**
 * A ping-pong of small arrays by blocking {@code send} and {@code recv} (in a job without replicas, the engine's
 * shallow path) inside {@code Checkpoint.resilient}: every iteration an even rank sends to its odd peer and waits in
 * {@code recv} while the peer computes, then answers. Killing the odd rank leaves the even one waiting in that
 * receive: the rollback must end the wait, and the job print what a run without failures prints.
 *
 * <p>Arguments: iterations (default 50), milliseconds the odd rank computes per iteration (default 20), a forced
 * checkpoint every K iterations (default 10). Needs an even number of ranks. Rank 0 prints one line per iteration.
 */
public final class ResilientPingPong {

    private ResilientPingPong() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Checkpoint.resilient(start -> body(args));
        MPI.Finalize();
    }

    private static void body(String[] args) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int peer = rank ^ 1;
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        long busyNanos = (args.length > 1 ? Long.parseLong(args[1]) : 20) * 1_000_000L;
        int forceEvery = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        RestartIterations.Loop loop = new RestartIterations.Loop();
        loop.history = rank;
        Checkpoint.register("loop", loop);
        if (Checkpoint.isRestart()) {
            Checkpoint.recover();
        }
        byte[] in = new byte[16];
        double[] din = new double[2];
        while (loop.iteration < iterations) {
            byte[] out = new byte[16];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (loop.history >>> (i % 8 * 8));
            }
            double[] dout = {loop.iteration, loop.history * 1e-9};
            if (rank < peer) {
                world.send(out, out.length, MPI.BYTE, peer, 1);
                world.recv(in, in.length, MPI.BYTE, peer, 2);   // the peer computes meanwhile
                world.send(dout, 2, MPI.DOUBLE, peer, 3);
                world.recv(din, 2, MPI.DOUBLE, peer, 4);
            } else {
                world.recv(in, in.length, MPI.BYTE, peer, 1);
                RepairWorkload.compute(0, busyNanos);
                world.send(out, out.length, MPI.BYTE, peer, 2);
                world.recv(din, 2, MPI.DOUBLE, peer, 3);
                world.send(dout, 2, MPI.DOUBLE, peer, 4);
            }
            for (byte b : in) {
                loop.history = RepairWorkload.mix(loop.history, b);
            }
            loop.history = RepairWorkload.mix(loop.history, Double.doubleToLongBits(din[0] + din[1]));
            if (rank == 0) {
                System.out.printf("iteration %d history %016x%n", loop.iteration, loop.history);
            }
            loop.iteration++;
            if (loop.iteration % forceEvery == 0) {
                Checkpoint.checkpoint();
            } else {
                Checkpoint.snapshot();
            }
        }
        RepairWorkload.reportStates(world, "ResilientPingPong", loop.history);
    }
}

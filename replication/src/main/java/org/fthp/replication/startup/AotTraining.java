package org.fthp.replication.startup;

import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;

/**
 * The training run of the ranks' ahead-of-time cache (scripts/aot-cache.sh runs it under fthp-run, replicated and
 * checkpointed, with {@code -XX:AOTMode=record}): what every rank does on its way into its main loop, so that the
 * classes it loads and links there come mapped from the cache instead of parsed, verified and linked by each of
 * the many JVMs a job starts at once. It lives in the runtime jar because the cache can only hold classes of the
 * class path it was trained with, and the runtime jar is the one entry every rank's class path starts with.
 *
 * <p>MPI.Init, a ring exchange of a small and a large message, the common collectives, a registered piece of
 * state and one forced checkpoint (when the job has checkpoint storage), then {@link #ROUNDS} rounds of a small
 * ring exchange and an allreduce, MPI.Finalize. Prints nothing.
 *
 * <p>The rounds are where scripts/aot-cache.sh kills a computational copy ({@code --kill 1:cmp#CALL}): the
 * survivors' repair (agreement, rebuild, record exchange, a replica's promotion) is then in the record as well.
 * Untrained, every repair is its job's first run of that code: its classes loaded and linked, its lambdas spun
 * while all survivors wait for the slowest. Everything after MPI.Init runs in {@link Checkpoint#resilient}, so
 * that the script's later kill of both copies of rank 0 (with a spare) puts a rollback in place in the record too:
 * the readiness round, the generation's communicators and the recovery, which every survivor and the spare
 * otherwise load while the others wait.
 */
public final class AotTraining {

    /** Rounds after the checkpoint: enough MPI calls that the training's kill lands among them. */
    public static final int ROUNDS = 400;

    private AotTraining() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Checkpoint.resilient(start -> body());
        MPI.Finalize();
    }

    private static void body() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        double[] state = new double[1 << 16];
        int[] iteration = {0};
        Checkpoint.register("state", state);
        Checkpoint.register("iteration", iteration);
        if (Checkpoint.isRestart()) {
            Checkpoint.recover();
        }
        for (int length : new int[] {8, state.length}) {
            double[] in = new double[length];
            MPI.COMM_WORLD.sendRecv(state, length, MPI.DOUBLE, right, 1, in, length, MPI.DOUBLE, left, 1);
        }
        double[] sum = new double[4];
        MPI.COMM_WORLD.allReduce(state, sum, sum.length, MPI.DOUBLE, MPI.SUM);
        MPI.COMM_WORLD.bcast(iteration, 1, MPI.INT, 0);
        MPI.COMM_WORLD.barrier();
        iteration[0]++;
        Checkpoint.checkpoint();
        Checkpoint.snapshot();
        double[] one = new double[1];
        double[] in = new double[1];
        for (int round = 0; round < ROUNDS; round++) {
            one[0] = round;
            MPI.COMM_WORLD.sendRecv(one, 1, MPI.DOUBLE, right, 2, in, 1, MPI.DOUBLE, left, 2);
            MPI.COMM_WORLD.allReduce(one, in, 1, MPI.DOUBLE, MPI.SUM);
        }
    }
}

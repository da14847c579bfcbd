package org.fthp.bench;

import java.util.Arrays;
import java.util.Locale;

import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;

/**
 * What a checkpoint costs a program, and how long a restart takes to bring it
 * back (bench/checkpoint.sh drives it; not a test).
 *
 * <ul>
 *   <li>{@code cost MB K}: every rank registers MB mebibytes of doubles and
 *       takes K forced checkpoints; rank 0 prints, per checkpoint, the
 *       slowest rank's time in {@code Checkpoint.checkpoint()} (encode, put
 *       to its node's and a partner node's coordinator memory):
 *       {@code checkpoint <bytes per rank> <seconds>}.
 *   <li>{@code loop MB ITERATIONS MS}: a main loop with a snapshot per
 *       iteration of MS milliseconds; after a restart every rank prints on
 *       stderr when it is back in the loop ({@code resumed <epoch ms>}, with
 *       the phases before and the CPU time it used), so the driver can time
 *       the restart from the kill.
 *   <li>{@code resilient MB ITERATIONS MS}: the same loop with everything after {@code MPI.Init} in
 *       {@code Checkpoint.resilient}, the state allocated and registered by the body ({@code Checkpoint.registerArray}:
 *       a survivor of a rollback gets its arrays back; filled on the first run only: a restart's {@code recover}
 *       overwrites it): with a spare the job rolls back
 *       in place, without one it relaunches. Every process that resumes (rolled back, replacement or relaunched;
 *       replicas too) writes to its real stderr {@code resumed <epoch ms> start <why> body <ms> registered <ms>
 *       init <ms> main <ms>}: when it was back in the loop, when the body began, when the state was registered (the
 *       recovery starts), when MPI_Init returned and main began.
 * </ul>
 */
public final class CheckpointBench {

    private CheckpointBench() {}

    public static void main(String[] args) throws MPIException {
        long mainAt = System.currentTimeMillis();
        MPI.Init(args);
        long initAt = System.currentTimeMillis();
        String mode = args[0];
        if (mode.equals("resilient")) {
            resilientLoop(args, mainAt, initAt);
            MPI.Finalize();
            return;
        }
        long bytes = (long) (Double.parseDouble(args[1]) * (1 << 20));
        double[] state = new double[(int) (bytes / 8)];
        Arrays.fill(state, MPI.COMM_WORLD.getRank());
        Checkpoint.register("state", state);
        int[] iteration = {0};
        Checkpoint.register("iteration", iteration);
        if (Checkpoint.isRestart()) {
            long recoverAt = System.currentTimeMillis();
            Checkpoint.recover();
            long started = ProcessStart.epochMillis();
            long cpu = ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis)
                    .orElse(-1L);
            // when the process started, main began (JVM start), MPI_Init ended, the state was registered, recovered;
            // the CPU time (user + system, milliseconds) the process had used by then
            System.err.println("resumed " + System.currentTimeMillis() + " process " + started + " main " + mainAt
                    + " init " + initAt + " registered " + recoverAt + " cpu " + cpu);
        }
        if (System.getenv("FTHP_BENCH_TRACE") != null) {
            System.err.println("started main " + mainAt + " init " + initAt);
        }
        if (mode.equals("cost")) {
            int k = Integer.parseInt(args[2]);
            double[] mine = new double[1];
            double[] slowest = new double[1];
            for (int i = 0; i < k; i++) {
                MPI.COMM_WORLD.barrier();
                long startedMs = System.currentTimeMillis();
                long t0 = System.nanoTime();
                long epoch = Checkpoint.nextEpoch();
                Checkpoint.checkpoint();
                mine[0] = (System.nanoTime() - t0) / 1e9;
                MPI.COMM_WORLD.reduce(mine, slowest, 1, MPI.DOUBLE, MPI.MAX, 0);
                // checkpoints come minutes apart in a real run: the next starts once this one is committed (its
                // partner copies done), and the time to the commit is reported apart from the ranks' cost
                while (Checkpoint.lastCommittedEpoch() < epoch) {
                    Thread.onSpinWait();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                double committed = (System.nanoTime() - t0) / 1e9;
                if (MPI.COMM_WORLD.getRank() == 0) {
                    System.out.printf(Locale.ROOT, "checkpoint %d %.6f epoch %d start %d committed %.6f%n", bytes,
                            slowest[0], epoch, startedMs, committed);
                }
            }
        } else {
            int iterations = Integer.parseInt(args[2]);
            long nanos = Long.parseLong(args[3]) * 1_000_000L;
            while (iteration[0] < iterations) {
                work(state, iteration[0], nanos);
                MPI.COMM_WORLD.barrier();
                iteration[0]++;
                Checkpoint.snapshot();
            }
        }
        MPI.Finalize();
    }

    /**
     * An iteration's work: busy for {@code nanos}, and one change to the state that depends on the iteration alone
     * (the twins of a replicated rank compare their state at every checkpoint: how far each got in the time is theirs).
     */
    private static void work(double[] state, int iteration, long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        state[iteration % state.length] += 1;
    }

    /**
     * Fd 2 itself, not System.err: the runtime keeps a replica's System.err back, and holds what a rollback's rerun
     * prints until it has recovered; the timings of every process are wanted.
     */
    private static final java.io.FileOutputStream RAW_ERR = new java.io.FileOutputStream(java.io.FileDescriptor.err);

    private static void resilientLoop(String[] args, long mainAt, long initAt) throws MPIException {
        long bytes = (long) (Double.parseDouble(args[1]) * (1 << 20));
        int iterations = Integer.parseInt(args[2]);
        long nanos = Long.parseLong(args[3]) * 1_000_000L;
        Checkpoint.resilient(start -> {
            long bodyAt = System.currentTimeMillis();
            // a survivor of a rollback gets its arrays back (zeroed) rather than allocating them again
            double[] state = Checkpoint.registerArray("state", double[].class, (int) (bytes / 8));
            int[] iteration = Checkpoint.registerArray("iteration", int[].class, 1);
            if (!Checkpoint.isRestart()) {
                // a restart's recover overwrites it all (a program initialises only what it does not recover)
                Arrays.fill(state, MPI.COMM_WORLD.getRank());
            }
            if (Checkpoint.isRestart()) {
                long registeredAt = System.currentTimeMillis();
                Checkpoint.recover();
                // the CPU time (user + system, ms) the process has used: less what it had used when the rollback was
                // announced (the runtime's trace), the rollback's CPU on this process
                long cpu = ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis)
                        .orElse(-1L);
                String line = "resumed " + System.currentTimeMillis() + " start " + start + " body " + bodyAt
                        + " registered " + registeredAt + " init " + initAt + " main " + mainAt + " cpu " + cpu
                        + "\n";
                try {
                    RAW_ERR.write(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            while (iteration[0] < iterations) {
                work(state, iteration[0], nanos);
                MPI.COMM_WORLD.barrier();
                iteration[0]++;
                Checkpoint.snapshot();
            }
        });
    }
}

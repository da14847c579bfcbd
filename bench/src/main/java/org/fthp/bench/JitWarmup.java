package org.fthp.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Warms a Java benchmark's kernel up until the JIT compilers have gone quiet on
 * every rank, so no timed loop shares the two cores with a C2 compilation.
 *
 * <p>Why not a fixed count of calls: the compiler threads compete with two
 * busy-polling ranks for the machine's two cores, so how many calls C2 needs
 * to finish (and to recompile after an uncommon trap) varies from run to run
 * and with the amount of code on the path. A fixed warm-up leaves some runs
 * timing while C2 is still at work, and those runs are several times slower.
 *
 * <p>Each round ends with a barrier, as each timed slice starts with one: a call
 * first made after the warm-up (the barrier was one) takes branches of shared
 * code (the operation's poll, the facade's guard) that the warm-up never took,
 * C2 throws that compiled code away (an uncommon trap) and recompiles it while
 * the first slices are timed. A benchmark whose timed part calls anything else
 * between slices puts that into its round too.
 *
 * <p>Quiet means: the process's total compilation time did not move during
 * {@link #QUIET_ROUNDS} consecutive rounds on any rank (agreed with an
 * allreduce, so every rank leaves after the same round). The warm-up is
 * bounded; a run that never went quiet says so on stderr, and the report
 * should not be trusted for it.
 */
final class JitWarmup {

    /** Consecutive rounds without any compilation on any rank. */
    static final int QUIET_ROUNDS = 3;
    /** Upper bound of the warm-up, in rounds. */
    static final int MAX_ROUNDS = Integer.getInteger("fthp.bench.jitMaxRounds", 200);

    /** One round of the kernel; make it last about as long as a C2 compile of a hot method, so quiet rounds mean something. */
    @FunctionalInterface
    interface Round {
        void run() throws MPIException;
    }

    private JitWarmup() {}

    /**
     * Runs {@code round} until the JIT is quiet everywhere, at least
     * {@code minRounds} times (only {@code minRounds} where the JVM cannot tell
     * its compilation time). Collective over {@code comm}.
     *
     * @return the rounds run
     */
    static int untilQuiet(Intracomm comm, int minRounds, Round round) throws MPIException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            for (int r = 0; r < minRounds; r++) {
                round.run();
                comm.barrier();
            }
            return minRounds;
        }
        double[] busy = new double[1], anyBusy = new double[1];
        int quiet = 0, rounds = 0;
        long before = jit.getTotalCompilationTime();
        while (rounds < MAX_ROUNDS) {
            round.run();
            comm.barrier();
            rounds++;
            long after = jit.getTotalCompilationTime();
            busy[0] = after != before ? 1 : 0;
            before = after;
            Uncompared.nextContribution();   // each copy's own JIT: twins of a rank differ here
            comm.allReduce(busy, anyBusy, 1, MPI.DOUBLE, MPI.SUM);
            quiet = anyBusy[0] == 0 ? quiet + 1 : 0;
            if (quiet >= QUIET_ROUNDS && rounds >= minRounds) {
                return rounds;
            }
        }
        if (comm.getRank() == 0) {
            System.err.println("warning: the JIT compilers were still busy after " + rounds
                    + " warm-up rounds; the timings of this run may include compilation");
        }
        return rounds;
    }
}

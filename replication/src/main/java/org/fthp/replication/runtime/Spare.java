package org.fthp.replication.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.fthp.empi.Empi;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.failure.SpareLink;
import org.fthp.replication.log.RunStatistics;
import org.fthp.replication.output.RuntimeMessages;

/**
 * The life of a spare (fthp-run --spares): a native rank after the program's N + M that completed MPI_Init with
 * everyone and holds no logical rank. It waits inside {@code MPI.Init} on its coordinator connection, without a
 * single MPI call (so without polling: no CPU), and when the program has ended everywhere it enters MPI_Finalize
 * with the others (the native Finalize waits for every process of COMM_WORLD) and exits 0 without running the
 * program. It leaves what its wait cost in the run's statistics directory for the summary.
 */
final class Spare {

    /** Bound on a native Finalize that cannot survive a dead peer (MPICH's), as for the program's processes. */
    private static final long NATIVE_FINALIZE_BOUND_MILLIS = 10_000;

    /**
     * Classes whose static initialisation does I/O, initialised before the wait rather than when the spare builds its
     * engine while every survivor waits for it: the small-message path's JNI library (its source read from the jar,
     * hashed with the compiler wrapper, the cached library loaded), 10-50 ms on a shared node. By name: the class is
     * its package's own, and its initialiser decides whether that library is wanted at all.
     */
    private static final String[] TAKEOVER_CLASSES = {"org.fthp.replication.ops.FastInline"};

    private Spare() {}

    /**
     * A spare given a lost rank: its link ({@link SpareLink#role}; the caller ends it) and when the role came, which
     * FTHP_TRACE_ROLLBACK says once the spare is back in the job ({@link #traced}): the job waits for the spare until
     * then, and a JVM's first message costs it tens of milliseconds.
     */
    record Taken(SpareLink link, long assignedAtMillis, long assignedCpuMillis) {

        /** With FTHP_TRACE_ROLLBACK, when the role came (bench/checkpoint.sh's agreement step ends there). */
        void traced(int nativeRank) {
            if (RollbackTrace.ON) {
                RuntimeMessages.say("fthp-rollback-trace spare " + nativeRank + " assigned " + assignedAtMillis
                        + " cpu " + assignedCpuMillis);
            }
        }
    }

    /**
     * Runs spare {@code nativeRank}'s wait: returns once a rollback gave it a lost rank, or never (the job ended
     * without needing it: it finalizes and exits).
     */
    static Taken live(int nativeRank, int nativeSize, int spareIndex) {
        SpareLink link;
        try {
            link = SpareLink.connectIfConfigured(nativeRank, nativeSize, spareIndex);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(MpiError.ERR_OTHER, "interrupted while connecting to the coordinator");
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            throw new MpiError(MpiError.ERR_OTHER, "cannot reach this node's coordinator: " + e);
        }
        if (link == null) {
            throw new MpiError(MpiError.ERR_OTHER, "native rank " + nativeRank + " is a spare, but the job has no"
                    + " coordinators to give it a role (start the job with fthp-run --spares)");
        }
        // the statistics' file write, once before the wait: the first costs a JVM tens of milliseconds, which a spare
        // given a rank would add to the rollback every survivor waits for
        try {
            write(Path.of("/dev/null"), 0, 0, Duration.ZERO);
        } catch (IOException e) {
            // nowhere to rehearse it: the real write pays its first time
        }
        initializeTakeoverClasses();
        long startNanos = System.nanoTime();
        Duration cpuBefore = processCpu();
        SpareLink.Outcome outcome;
        try {
            outcome = link.await(new SpareHeap(link::ended)::ready);
        } catch (InterruptedException e) {
            outcome = SpareLink.Outcome.JOB_ENDED;
        }
        Duration cpuAfter = processCpu();
        Duration cpuWaiting = cpuAfter.minus(cpuBefore);
        double waited = (System.nanoTime() - startNanos) / 1e9;
        if (outcome == SpareLink.Outcome.ROLE) {
            long assignedAt = System.currentTimeMillis();
            // counted as used even should it die taking the rank
            writeStatistics(nativeRank, 1, waited, cpuWaiting);
            // the caller registers it again as the rank's copy (its engine's own link), then ends this connection
            return new Taken(link, assignedAt, cpuAfter.toMillis());
        }
        if (outcome != SpareLink.Outcome.RELEASED) {
            // the launcher is ending the native job; a Finalize now would wait for processes that are gone
            Runtime.getRuntime().halt(1);
        }
        writeStatistics(nativeRank, 0, waited, cpuWaiting);
        link.finish();
        if (Empi.finalizeSurvivesDeadPeers()) {
            Empi.finalizeMpi();
        } else if (!Empi.finalizeMpiWithin(NATIVE_FINALIZE_BOUND_MILLIS)) {
            RuntimeMessages.say("fthp: spare " + nativeRank + " left MPI_Finalize unfinished after "
                    + NATIVE_FINALIZE_BOUND_MILLIS + " ms: it waits forever on a peer that died during it");
        }
        System.exit(0);
        return null;
    }

    /** {@link #TAKEOVER_CLASSES}, initialised; a failure is left for the engine, which meets it again. */
    private static void initializeTakeoverClasses() {
        for (String name : TAKEOVER_CLASSES) {
            try {
                Class.forName(name, true, Spare.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // reported where the engine uses the class
            }
        }
    }

    /** This JVM's CPU time so far, every thread; zero where the system does not say. */
    private static Duration processCpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** {@code spare-R.spare}: {@code used waitedSeconds cpuSecondsWaiting} (used: 1 if it took a lost rank). */
    private static void writeStatistics(int nativeRank, int used, double waited, Duration cpu) {
        String dir = System.getenv(RunStatistics.DIR_ENV);
        if (dir == null || dir.isBlank()) {
            return;
        }
        try {
            write(Path.of(dir, "spare-" + nativeRank + ".spare"), used, waited, cpu);
        } catch (IOException e) {
            RuntimeMessages.say("fthp: cannot write to " + dir + ": " + e.getMessage());
        }
    }

    private static void write(Path file, int used, double waited, Duration cpu) throws IOException {
        // no String.format: its first use costs tens of milliseconds, which a spare given a rank would add to the
        // rollback every survivor waits for
        Files.writeString(file, used + " " + waited + " " + cpu.toNanos() / 1e9 + "\n");
    }
}

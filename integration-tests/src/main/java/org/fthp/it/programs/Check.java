package org.fthp.it.programs;

import java.util.Arrays;

/**
 * Assertions for the MPI test programs: a failed check throws, the JVM exits
 * non-zero and the whole job fails, which the JUnit side reports.
 */
public final class Check {

    private Check() {}

    /** The checks of a program: may throw anything. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs a program's checks on every rank: any failure prints the rank and
     * aborts the whole job (so the test sees a non-zero exit at once, not a
     * hang); when every rank passed, rank 0 prints "{@code <name> OK np=<n>}".
     */
    public static void runAll(mpi.Intracomm w, String name, Body body) throws mpi.MPIException {
        int rank = w.getRank();
        try {
            body.run();
        } catch (Throwable t) {
            System.err.println("rank " + rank + ": " + t);
            t.printStackTrace();
            System.err.flush();
            w.abort(1);
        }
        w.barrier();
        if (rank == 0) {
            System.out.println(name + " OK np=" + w.getSize());
        }
    }

    /** An MPI call a check expects to fail. */
    @FunctionalInterface
    public interface Call {
        void run() throws mpi.MPIException;
    }

    /** {@code call} must throw an MPIException of class MPI_ERR_BUFFER. */
    public static void bufferError(Call call, String what) {
        try {
            call.run();
        } catch (mpi.MPIException e) {
            equal(mpi.MPI.ERR_BUFFER, e.getErrorClass(), what + ": error class (" + e.getMessage() + ")");
            return;
        }
        throw new AssertionError(what + ": no MPIException");
    }

    public static void that(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("check failed: " + what);
        }
    }

    public static void equal(long expected, long actual, String what) {
        if (expected != actual) {
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
        }
    }

    public static void equal(double expected, double actual, String what) {
        if (Double.compare(expected, actual) != 0) {
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
        }
    }

    public static void equal(Object expected, Object actual, String what) {
        if (!java.util.Objects.equals(expected, actual)) {
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
        }
    }

    public static void array(int[] expected, int[] actual, String what) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError(what + ": expected " + Arrays.toString(expected) + ", got " + Arrays.toString(actual));
        }
    }

    public static void array(double[] expected, double[] actual, String what) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError(what + ": expected " + Arrays.toString(expected) + ", got " + Arrays.toString(actual));
        }
    }
}

package org.fthp.it.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * MPI calls before MPI.Init and after MPI.Finalize throw MPIException
 * ("not initialized" / "finalized"); Init twice throws too.
 * Prints "OK &lt;case&gt;" per case and "BadInputLifecycle OK rank r" at the end.
 */
public final class BadInputLifecycle {

    interface Call {
        void run() throws MPIException;
    }

    static String prefix = "?";

    static void expect(String name, String messagePart, Call call) {
        MPIException caught = null;
        try {
            call.run();
        } catch (MPIException e) {
            caught = e;
        }
        Check.that(caught != null, name + ": no MPIException thrown");
        String msg = caught.getMessage();
        boolean matches = false;
        for (String part : messagePart.split("\\|")) {
            matches |= msg != null && msg.toLowerCase().contains(part);
        }
        Check.that(matches,
                name + ": message should contain '" + messagePart + "' but was: " + msg);
        System.out.println("OK " + prefix + " " + name);
    }

    public static void main(String[] args) throws MPIException {
        prefix = "before-init";
        Check.that(!MPI.isInitialized(), "isInitialized() before Init");
        Check.that(!MPI.isFinalized(), "isFinalized() before Init");
        expect("COMM_WORLD.getRank", "not initialized", () -> MPI.COMM_WORLD.getRank());
        expect("COMM_WORLD.getSize", "not initialized", () -> MPI.COMM_WORLD.getSize());
        expect("COMM_WORLD.barrier", "not initialized", () -> MPI.COMM_WORLD.barrier());
        expect("COMM_WORLD.send", "not initialized", () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0));
        expect("wtime", "not initialized", () -> MPI.wtime());
        expect("Finalize", "not initialized", () -> MPI.Finalize());

        MPI.Init(args);
        prefix = "initialized";
        Check.that(MPI.isInitialized(), "isInitialized() after Init");
        Check.that(!MPI.isFinalized(), "isFinalized() after Init");
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        expect("Init twice", "already initialized", () -> MPI.Init(args));
        int[] sum = {rank + 1};
        MPI.COMM_WORLD.allReduce(sum, 1, MPI.INT, MPI.SUM);
        Check.equal((long) size * (size + 1) / 2, sum[0], "allReduce");
        MPI.Finalize();

        prefix = "after-finalize";
        Check.that(MPI.isFinalized(), "isFinalized() after Finalize");
        expect("COMM_WORLD.getRank", "finalized", () -> MPI.COMM_WORLD.getRank());
        expect("COMM_WORLD.send", "finalized", () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0));
        expect("COMM_WORLD.barrier", "finalized", () -> MPI.COMM_WORLD.barrier());
        expect("Finalize twice", "finalized", () -> MPI.Finalize());
        expect("Init after Finalize", "finalized|already initialized", () -> MPI.Init(args));
        System.out.println("BadInputLifecycle OK rank " + rank);
    }
}

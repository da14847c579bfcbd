package org.fthp.it.programs;

import java.nio.IntBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The program's own error in an operation a repair completes. Rank 1 posts a
 * receive of one int; rank 0 sends it two (a truncation, which the program
 * expects to be told of when it waits). Rank 1 then computes outside MPI
 * while the test kills the witness rank 2's computational copy as it enters
 * the barrier after: rank 1's repair thread repairs, and on rank 1's replica
 * the repair progresses every operation in flight before it gives up the
 * twin channel, the truncated receive included. The error is the program's:
 * its wait must report {@code ERR_TRUNCATE}, and the job go on: the repair
 * must not take the operation's error for its own and stop the replica.
 * Needs 3 ranks; a correct MPI program without kills too.
 */
public final class TruncationThroughRepair {

    /** How long rank 0 and 1 stay outside MPI: the failure is detected and repaired meanwhile. */
    static final long COMPUTE_MILLIS = 1500;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        Check.that(w.getSize() == 3, "needs 3 ranks");
        IntBuffer small = MPI.newIntBuffer(1);
        Request truncated = null;
        if (rank == 1) {
            truncated = w.iRecv(small, 1, MPI.INT, 0, 30);
        } else if (rank == 0) {
            w.send(new int[] {7, 8}, 2, MPI.INT, 1, 30);
        }
        w.barrier(); // the two ints have reached rank 1 by now
        if (rank != 2) {
            Thread.sleep(COMPUTE_MILLIS);
        }
        w.barrier(); // the witness's computational copy dies entering it
        if (rank == 1) {
            try {
                truncated.waitFor();
                Check.that(false, "a receive of 1 int matched with 2 must fail");
            } catch (MPIException e) {
                Check.equal(MPI.ERR_TRUNCATE, e.getErrorClass(), "truncation error class");
            }
            System.out.println("TruncationThroughRepair: the truncation was reported to the program");
        }
        int[] sum = new int[1];
        w.allReduce(new int[] {rank + 1}, sum, 1, MPI.INT, MPI.SUM);
        Check.equal(6, sum[0], "the job goes on");
        if (rank == 0) {
            System.out.println("TruncationThroughRepair OK");
        }
        MPI.Finalize();
    }
}

package org.fthp.it.programs;

import java.nio.DoubleBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * A repair between a matched probe and its receive. Rank 1 matches a message
 * from rank 0 with {@code mProbe}, then tells a witness rank so; the test
 * kills the witness's computational copy as it enters the barrier that
 * follows, so rank 1's barrier waits for the repair and its {@code mRecv}
 * comes after it. Then rank 1 receives from rank 0 with {@code ANY_TAG}: it
 * must get rank 0's next message, not a leftover copy of the probed one.
 * Two rounds: a small message (held by the native library's handle) with
 * witness 3, then a large one (its header already read; its payload pulled or
 * sent apart) with witness 2. Needs 4 ranks; prints one line per round. A
 * correct MPI program without kills too (the probed message is sent
 * nonblocking and waited for after the barrier).
 */
public final class MatchedProbeRepair {

    static final int SMALL = 16;
    static final int LARGE = 300_000; // doubles: 2.4 MB, well above the eager limit

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        Check.that(w.getSize() == 4, "needs 4 ranks");
        round(w, rank, SMALL, 3, 10);
        round(w, rank, LARGE, 2, 20);
        if (rank == 0) {
            System.out.println("MatchedProbeRepair done");
        }
        MPI.Finalize();
    }

    /** One probe, kill and receive with {@code count} doubles; tags {@code tag} and {@code tag + 1}. */
    private static void round(Intracomm w, int rank, int count, int witness, int tag) throws MPIException {
        int[] token = {0};
        Message m = new Message();
        Request probed = null;
        if (rank == 0) {
            // nonblocking: a large message's send may wait for its receive, which comes after the barrier
            DoubleBuffer b = MPI.newDoubleBuffer(count);
            b.put(values(tag, count));
            probed = w.iSend(b, count, MPI.DOUBLE, 1, tag);
            w.send(values(tag + 1, 4), 4, MPI.DOUBLE, 1, tag + 1);
        } else if (rank == 1) {
            Status p = m.mProbe(0, tag, w);
            Check.equal(count, p.getCount(MPI.DOUBLE), "mprobed count");
            w.send(token, 1, MPI.INT, witness, 1);
        } else if (rank == witness) {
            w.recv(token, 1, MPI.INT, 1, 1);
        }
        w.barrier(); // the witness's computational copy dies entering it
        if (rank == 1) {
            double[] got = new double[count];
            Status s = m.mRecv(got, count, MPI.DOUBLE);
            Check.equal(tag, s.getTag(), "mRecv tag");
            Check.equal(count, s.getCount(MPI.DOUBLE), "mRecv count");
            Check.that(java.util.Arrays.equals(values(tag, count), got), "mRecv contents");
            double[] next = new double[4];
            s = w.recv(next, 4, MPI.DOUBLE, 0, MPI.ANY_TAG);
            Check.equal(tag + 1, s.getTag(), "the next message after the probed one (not a copy of it)");
            Check.that(java.util.Arrays.equals(values(tag + 1, 4), next), "the next message's contents");
            System.out.println("MatchedProbeRepair round " + count + " OK");
        }
        if (probed != null) {
            probed.waitFor();
        }
        w.barrier();
    }

    private static double[] values(int tag, int count) {
        double[] v = new double[count];
        for (int i = 0; i < count; i++) {
            v[i] = tag * 1e6 + i * 0.25;
        }
        return v;
    }
}

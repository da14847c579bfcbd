package org.fthp.it.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Buffered sends through a repair: partners rank^1 exchange large bSend
 * messages for a few seconds (both send first, then receive) while a copy
 * is killed. A buffered message is logged like any send, so the repair
 * resends or skips it; every message is checked. Needs an even number of
 * ranks; prints "CompatBsendRepair OK np=n".
 */
public final class CompatBsendRepair {

    static final int N = 64 * 1024;
    static final int ROUNDS = 100;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int partner = rank ^ 1;
        Check.runAll(w, "CompatBsendRepair", () -> {
            // room for three: the previous rounds' messages may not look sent yet
            byte[] attached = new byte[3 * (N * 4 + MPI.BSEND_OVERHEAD)];
            MPI.attachBuffer(attached);
            int[] out = new int[N];
            int[] in = new int[N];
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < N; i++) out[i] = rank * 1_000_003 + round * 7919 + i;
                w.bSend(out, N, MPI.INT, partner, round);
                w.recv(in, N, MPI.INT, partner, round);
                for (int i = 0; i < N; i += 1009) {
                    Check.equal(partner * 1_000_003 + round * 7919 + i, in[i], "round " + round + " [" + i + "]");
                }
                Thread.sleep(30);   // spread the rounds over a few seconds, so the kill lands among them
            }
            Check.that(MPI.detachBuffer() == attached, "detachBuffer returns the attached array");
        });
        MPI.Finalize();
    }
}

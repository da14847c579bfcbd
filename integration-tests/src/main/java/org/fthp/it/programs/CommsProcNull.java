package org.fthp.it.programs;

import mpi.CartComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;
import mpi.Status;

/**
 * Shifts on a NON-periodic 1-D CartComm give MPI.PROC_NULL at the edges; the usual idiom
 * is to pass them straight to sendRecv, which must then act as a no-op on that side
 * (recv from PROC_NULL: buffer untouched, status source PROC_NULL, tag ANY_TAG, count 0).
 */
public final class CommsProcNull {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank(), size = w.getSize();
        Check.runAll(w, "CommsProcNull", () -> {
            CartComm line = w.createCart(new int[] {size}, new boolean[] {false}, false);
            for (int disp : new int[] {1, -1}) {
                ShiftParms sp = line.shift(0, disp);
                int src = rank - disp, dst = rank + disp;
                int expSrc = src < 0 || src >= size ? MPI.PROC_NULL : src;
                int expDst = dst < 0 || dst >= size ? MPI.PROC_NULL : dst;
                Check.equal(expSrc, sp.getRankSource(), "shift source");
                Check.equal(expDst, sp.getRankDest(), "shift dest");
                int[] in = {-1, -1};
                Status st = line.sendRecv(new int[] {rank, rank * 10}, 2, MPI.INT, sp.getRankDest(), 3,
                        in, 2, MPI.INT, sp.getRankSource(), 3);
                if (expSrc == MPI.PROC_NULL) {
                    Check.array(new int[] {-1, -1}, in, "sendRecv from PROC_NULL leaves buffer untouched");
                    Check.equal(MPI.PROC_NULL, st.getSource(), "status source after recv from PROC_NULL");
                    Check.equal(MPI.ANY_TAG, st.getTag(), "status tag after recv from PROC_NULL");
                    Check.equal(0, st.getCount(MPI.INT), "status count after recv from PROC_NULL");
                } else {
                    Check.array(new int[] {expSrc, expSrc * 10}, in, "sendRecv along non-periodic shift");
                    Check.equal(expSrc, st.getSource(), "status source");
                }
            }
            line.free();
        });
        MPI.Finalize();
    }
}

package mpi;

/** The two neighbours of a Cartesian shift (CartComm.shift). */
public final class ShiftParms {

    private final int rankSource;
    private final int rankDest;

    protected ShiftParms(int rankSource, int rankDest) {
        this.rankSource = rankSource;
        this.rankDest = rankDest;
    }

    /** Rank to receive from, or MPI.PROC_NULL off a non-periodic edge. */
    public int getRankSource() {
        return rankSource;
    }

    /** Rank to send to, or MPI.PROC_NULL off a non-periodic edge. */
    public int getRankDest() {
        return rankDest;
    }
}

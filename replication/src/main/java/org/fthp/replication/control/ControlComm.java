package org.fthp.replication.control;

/**
 * The engine's own communicator for one generation of the job (acknowledgements, the repair's rounds and
 * all-to-alls, Finalize's barrier, communicator creation and release), and how native ranks number in it.
 *
 * <p>Generation 0's is a duplicate of the native COMM_WORLD, numbered as it is. Each rollback in place makes a new
 * one over the processes that hold the program's copies after it (docs/DESIGN.md §12), so no message of an earlier
 * generation still in flight (an acknowledgement, a readiness round a survivor unwound from) can match a receive of
 * the new one: a fresh communicator has a context of its own. Its ranks are the group's, not the native ones, so
 * every native call on it goes through {@link #rank} and every source it reports through {@link #nativeRank}; the
 * engine's parts go on naming processes by native rank.
 */
public final class ControlComm {

    /** A job without replicas has no control communicator. */
    public static final ControlComm NONE = new ControlComm(0, null, null);

    private final long handle;
    /** Native rank to rank here, -1 for a process not in it; null when numbered as the native COMM_WORLD. */
    private final int[] rankOfNative;
    /** Rank here to native rank; null when numbered as the native COMM_WORLD. */
    private final int[] nativeOfRank;

    private ControlComm(long handle, int[] rankOfNative, int[] nativeOfRank) {
        this.handle = handle;
        this.rankOfNative = rankOfNative;
        this.nativeOfRank = nativeOfRank;
    }

    /** A duplicate of the native COMM_WORLD: every native rank is its own rank here. */
    public static ControlComm ofWorld(long handle) {
        return new ControlComm(handle, null, null);
    }

    /**
     * A communicator made over {@code natives} (native ranks, in the order of the group it was made with: rank
     * {@code k} here is {@code natives[k]}) out of a native world of {@code nativeSize} processes.
     */
    public static ControlComm ofGroup(long handle, int[] natives, int nativeSize) {
        int[] rankOf = new int[nativeSize];
        java.util.Arrays.fill(rankOf, -1);
        for (int k = 0; k < natives.length; k++) {
            if (natives[k] < 0 || natives[k] >= nativeSize || rankOf[natives[k]] >= 0) {
                throw new IllegalArgumentException("native ranks " + java.util.Arrays.toString(natives)
                        + " are not distinct ranks of a world of " + nativeSize);
            }
            rankOf[natives[k]] = k;
        }
        return new ControlComm(handle, rankOf, natives.clone());
    }

    /** The native handle; 0 for {@link #NONE}. */
    public long handle() {
        return handle;
    }

    public boolean exists() {
        return handle != 0;
    }

    /**
     * The rank here of native process {@code nativeRank}. A process outside this generation (dead before it, or a
     * spare that took no rank) is never addressed by a part that follows the layout: asking is an engine bug,
     * told at once rather than as a message sent to nobody.
     */
    public int rank(int nativeRank) {
        if (rankOfNative == null) {
            return nativeRank;
        }
        int r = nativeRank >= 0 && nativeRank < rankOfNative.length ? rankOfNative[nativeRank] : -1;
        if (r < 0) {
            throw new IllegalStateException("native rank " + nativeRank + " is not in this generation's control"
                    + " communicator");
        }
        return r;
    }

    /** Whether this communicator's ranks are exactly {@code natives}, in that order (a generation's is made so). */
    public boolean spans(int[] natives) {
        return nativeOfRank != null && java.util.Arrays.equals(nativeOfRank, natives);
    }

    /** The native rank of rank {@code rank} here (a status's source). */
    public int nativeRank(int rank) {
        return nativeOfRank == null ? rank : nativeOfRank[rank];
    }
}

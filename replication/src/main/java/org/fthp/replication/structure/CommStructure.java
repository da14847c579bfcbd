package org.fthp.replication.structure;

import org.fthp.msglog.SendSequence;

/**
 * The native communicators behind one user communicator (DESIGN §5) and the
 * maps between logical ranks (what the program sees) and native ranks.
 *
 * <p>Without replicas the replica-side communicators are null and CMP is the
 * whole eworld; the replication layer fills the rest in without changing any
 * caller. Membership is kept as logical ranks of COMM_WORLD so the structure
 * can be rebuilt from it after a failure.
 */
public final class CommStructure {

    private final int commId;
    private final long eworld;
    private final long cmp;
    private final long internal;
    private final int logicalRank;
    private final int logicalSize;
    private final int[] worldRanks;
    private final int[] remoteWorldRanks;
    private final SendSequence sendIds;
    private final ArrivedMessages arrived = new ArrivedMessages();
    private int childSequence;
    private int collectiveSequence;

    public CommStructure(int commId, long eworld, long cmp, long internal, int logicalRank, int[] worldRanks,
                         int[] remoteWorldRanks) {
        this.commId = commId;
        this.eworld = eworld;
        this.cmp = cmp;
        this.internal = internal;
        this.logicalRank = logicalRank;
        this.logicalSize = worldRanks.length;
        this.worldRanks = worldRanks;
        this.remoteWorldRanks = remoteWorldRanks;
        this.sendIds = new SendSequence(remoteWorldRanks != null ? remoteWorldRanks.length : worldRanks.length);
    }

    public int commId() { return commId; }

    /** All live copies of the members. */
    public long eworld() { return eworld; }

    /** The computational copies: where the program's own traffic goes. */
    public long cmp() { return cmp; }

    /**
     * A twin of {@link #cmp()} for the facade's own point-to-point traffic
     * (neighbourhood collectives and the like), so a user's wildcard receive
     * can never take one of those messages.
     */
    public long internal() { return internal; }

    /** The native communicator a channel's traffic goes over. */
    public long nativeComm(Channel channel) {
        return channel == Channel.USER ? cmp : internal;
    }

    public int rank() { return logicalRank; }
    public int size() { return logicalSize; }
    public boolean isInter() { return remoteWorldRanks != null; }
    public int remoteSize() { return remoteWorldRanks == null ? 0 : remoteWorldRanks.length; }

    /** Logical COMM_WORLD ranks of the (local) members, in communicator rank order. */
    public int[] worldRanks() { return worldRanks.clone(); }

    public int[] remoteWorldRanks() { return remoteWorldRanks == null ? null : remoteWorldRanks.clone(); }

    /** Native CMP rank of a logical destination or source (identity while CMP holds every rank in order). */
    public int cmpRankOf(int logical) { return logical; }

    /** Logical rank of a native CMP rank. */
    public int logicalOfCmp(int nativeRank) { return nativeRank; }

    public SendSequence sendIds() { return sendIds; }

    /**
     * Numbers the collectives the facade implements itself; every member
     * starts collectives in the same order, so they agree on it.
     */
    public int nextCollectiveSequence() {
        return collectiveSequence++;
    }

    /** Messages taken out of the native library (by a probe) that the program has not received yet. */
    public ArrivedMessages arrived() { return arrived; }

    /**
     * A communicator id for the next communicator derived from this one. Every
     * member derives communicators in the same order, so all agree on it.
     */
    public int nextChildId() {
        long x = ((long) commId << 32) ^ ++childSequence;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        int id = (int) x & 0x7fffffff;
        return id < 16 ? id + 16 : id;
    }
}

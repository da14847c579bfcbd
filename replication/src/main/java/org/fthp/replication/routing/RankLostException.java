package org.fthp.replication.routing;

/** Every copy of a logical rank has failed: the job cannot continue (until checkpoint restart exists). */
public final class RankLostException extends RuntimeException {

    private final int logicalRank;

    public RankLostException(int logicalRank) {
        super("every copy of rank " + logicalRank + " has failed");
        this.logicalRank = logicalRank;
    }

    public int logicalRank() {
        return logicalRank;
    }
}

package org.fthp.replication.structure;

/** The communicator ids every process gives COMM_WORLD and COMM_SELF alike. */
public final class CommIds {

    public static final int WORLD = 1;
    public static final int SELF = 2;

    private CommIds() {
    }
}

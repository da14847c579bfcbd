package org.fthp.replication.structure;

import java.util.ArrayList;
import java.util.List;

/**
 * Every communicator this process is a member of and has not freed, in the
 * order they were created: a repair rebuilds them in that order, which every
 * member shares (MPI creates communicators collectively). COMM_WORLD is the
 * first.
 */
public final class LiveComms {

    private final List<CommRef> comms = new ArrayList<>();

    public synchronized void add(CommRef c) {
        if (c.get() != null) {
            comms.add(c);
        }
    }

    public synchronized void remove(CommRef c) {
        comms.remove(c);
    }

    /** The current structure of the live communicator {@code commId}, or null. */
    public synchronized CommStructure byId(int commId) {
        for (CommRef c : comms) {
            CommStructure s = c.get();
            if (s != null && s.commId() == commId) {
                return s;
            }
        }
        return null;
    }

    public synchronized List<CommRef> snapshot() {
        return new ArrayList<>(comms);
    }
}

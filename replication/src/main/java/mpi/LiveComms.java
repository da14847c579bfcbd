package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * Every communicator this process is a member of and has not freed, in the
 * order they were created: a repair rebuilds them in that order, which every
 * member shares (MPI creates communicators collectively).
 */
final class LiveComms {

    private final List<Comm> comms = new ArrayList<>();

    synchronized void add(Comm c) {
        if (c.structure != null) {
            comms.add(c);
        }
    }

    synchronized void remove(Comm c) {
        comms.remove(c);
    }

    /** The current structure of the live communicator {@code commId}, or null. */
    synchronized org.fthp.replication.structure.CommStructure byId(int commId) {
        for (Comm c : comms) {
            var s = c.structure;
            if (s != null && s.commId() == commId) {
                return s;
            }
        }
        return null;
    }

    synchronized List<Comm> snapshot() {
        return new ArrayList<>(comms);
    }
}

package org.fthp.replication.structure;

import java.util.HashSet;
import java.util.Set;

/**
 * The ports this process opened and has not closed (MPI_Open_port). Serials
 * count from 0 in the order the program opens ports, so the replicas of a
 * process, running the same program, name their ports alike.
 */
public final class OpenPorts {

    private final int logicalRank;
    private final Set<PortName> open = new HashSet<>();
    private int nextSerial;

    public OpenPorts(int logicalRank) {
        this.logicalRank = logicalRank;
    }

    /** A new port of this process. */
    public synchronized PortName open() {
        PortName p = new PortName(logicalRank, nextSerial++);
        open.add(p);
        return p;
    }

    /** Closes {@code p}; false if this process had not opened it or closed it already. */
    public synchronized boolean close(PortName p) {
        return open.remove(p);
    }

    /** Whether this process opened {@code p} and has not closed it. */
    public synchronized boolean isOpen(PortName p) {
        return open.contains(p);
    }
}

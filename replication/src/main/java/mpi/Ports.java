package mpi;

import java.util.HashSet;
import java.util.Set;

import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.PortName;

/**
 * The ports this process opened and has not closed (Intracomm.openPort).
 * Serials count from 0 in the order the program opens ports, so the replicas
 * of a process, running the same program, name their ports alike.
 */
final class Ports {

    private static final Set<PortName> OPEN = new HashSet<>();
    private static int nextSerial;

    private Ports() {}

    static synchronized String open() throws MPIException {
        MPI.check();
        PortName p = new PortName(Engine.get().logicalRank(), nextSerial++);
        OPEN.add(p);
        return p.toString();
    }

    static synchronized void close(String name) throws MPIException {
        MPI.check();
        PortName p = parse(name);
        if (p == null || !OPEN.remove(p)) {
            throw Errors.error(MPI.ERR_PORT, "closePort: " + name + " is not a port this process opened");
        }
    }

    /** The port if this process opened it and it is still open, else null. */
    static synchronized PortName ownOpen(String name) {
        PortName p = parse(name);
        return p != null && OPEN.contains(p) ? p : null;
    }

    /** The port of this job a name gives, or null. */
    static PortName parse(String name) {
        try {
            return PortName.parse(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

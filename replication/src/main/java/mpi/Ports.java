package mpi;

import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.PortName;

/**
 * The shell of MPI_Open_port/MPI_Close_port: names to ports and errors; which
 * ports are open is the engine's ({@code structure.OpenPorts}).
 */
final class Ports {

    private Ports() {}

    static String open() throws MPIException {
        MPI.check();
        return Engine.get().ports().open().toString();
    }

    static void close(String name) throws MPIException {
        MPI.check();
        PortName p = parse(name);
        if (p == null || !Engine.get().ports().close(p)) {
            throw Errors.error(MPI.ERR_PORT, "closePort: " + name + " is not a port this process opened");
        }
    }

    /** The port if this process opened it and it is still open, else null. */
    static PortName ownOpen(String name) {
        PortName p = parse(name);
        return p != null && Engine.get().ports().isOpen(p) ? p : null;
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

package mpi;

import org.fthp.replication.p2p.Probed;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;

/**
 * The program's probe calls, in its terms: checks the source and tag, answers a probe
 * of {@code MPI.PROC_NULL} itself, and turns what the engine's probe found
 * ({@code p2p.Probes}) into a {@link Status}.
 */
final class ProbeCalls {

    private ProbeCalls() {}

    static void check(Comm comm, int source, int tag) throws MPIException {
        comm.live();
        Args.source(source, comm.peers());
        Args.recvTag(tag);
    }

    /** The status of a probed message: logical source, the program's tag, payload bytes. */
    static Status status(Probed p) {
        return new Status(p.source(), p.tag(), MPI.SUCCESS, false, p.bytes(), MPI.UNDEFINED);
    }

    private static Status procNull() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
    }

    /** A nonblocking probe; null if no message is there. */
    static Status iprobe(Comm comm, int source, int tag) throws MPIException {
        check(comm, source, tag);
        CommStructure s = comm.live();
        if (source == MPI.PROC_NULL) {
            return procNull();
        }
        Probed p = org.fthp.replication.p2p.Probes.iprobe(Engine.get(), s, source, tag);
        return p == null ? null : status(p);
    }

    /** A blocking probe. */
    static Status probe(Comm comm, int source, int tag) throws MPIException {
        check(comm, source, tag);
        CommStructure s = comm.live();
        if (source == MPI.PROC_NULL) {
            return procNull();
        }
        return status(org.fthp.replication.p2p.Probes.probe(Engine.get(), s, source, tag));
    }
}

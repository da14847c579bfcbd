package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.structure.CommStructure;

/** Probes in the program's terms: logical source, user tag, payload size without the header. */
final class Probes {

    private Probes() {}

    static int nativeSource(CommStructure s, int source) {
        return source == MPI.ANY_SOURCE ? Empi.ANY_SOURCE : s.cmpRankOf(source);
    }

    static void check(Comm comm, int source, int tag) throws MPIException {
        comm.live();
        Args.source(source, comm.peers());
        Args.recvTag(tag);
    }

    /** Status of the matched message; the status segment holds the native status. */
    static Status statusOf(CommStructure s, MemorySegment status, MemorySegment scratch) {
        int bytes = Empi.statusBytes(status, 0, scratch);
        return new Status(s.logicalOfCmp(Empi.statusSource(status, 0)), Empi.statusTag(status, 0), MPI.SUCCESS,
                false, Math.max(0, bytes - MessageHeader.BYTES), MPI.UNDEFINED);
    }

    static Status iprobe(Comm comm, int source, int tag) throws MPIException {
        check(comm, source, tag);
        CommStructure s = comm.live();
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment status = Empi.allocateStatuses(a, 1);
            Empi.iprobe(nativeSource(s, source), tag, s.cmp(), flag, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return null;
            }
            return statusOf(s, status, flag);
        }
    }

    /** Blocking probe as a loop of nonblocking ones, so it never waits inside the native library. */
    static Status probe(Comm comm, int source, int tag) throws MPIException {
        IdleStrategy idle = new IdleStrategy();
        idle.reset();
        while (true) {
            Status st = iprobe(comm, source, tag);
            if (st != null) {
                return st;
            }
            Session.orphans().progress();
            idle.idle();
        }
    }
}

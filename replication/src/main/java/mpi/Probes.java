package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.structure.ArrivedMessages;
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

    /** Status of a message that carries its payload, from its native status. */
    static Status statusOf(CommStructure s, MemorySegment status, MemorySegment scratch) {
        int bytes = Empi.statusBytes(status, 0, scratch);
        return new Status(s.logicalOfCmp(Empi.statusSource(status, 0)), Empi.statusTag(status, 0), MPI.SUCCESS,
                false, Math.max(0, bytes - MessageHeader.BYTES), MPI.UNDEFINED);
    }

    /** Status of a header-only message already taken out of the native library. */
    static Status statusOf(ArrivedMessages.Arrival a) {
        MemorySegment h = MemorySegment.ofArray(a.header());
        return new Status(MessageHeader.logicalSource(h), a.tag(), MPI.SUCCESS, false,
                MessageHeader.payloadBytes(h), MPI.UNDEFINED);
    }

    /**
     * Receives a matched header-only message (a large message's header, or an
     * empty message): only its header tells the program's count.
     */
    static ArrivedMessages.Arrival readHeaderOnly(MemorySegment message, int nativeSource, int tag) {
        CollectiveOp op = new CollectiveOp(Session.pool());
        MemorySegment header = op.stage(MessageHeader.BYTES);
        byte[] copy = new byte[MessageHeader.BYTES];
        op.start(req -> Empi.imrecv(header, MessageHeader.BYTES, Empi.BYTE, message, req),
                () -> MemorySegment.copy(header, ValueLayout.JAVA_BYTE, 0, copy, 0, copy.length));
        Session.await(op);
        return new ArrivedMessages.Arrival(nativeSource, tag, copy);
    }

    static Status iprobe(Comm comm, int source, int tag) throws MPIException {
        check(comm, source, tag);
        CommStructure s = comm.live();
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
        }
        int nativeSource = nativeSource(s, source);
        ArrivedMessages.Arrival early = s.arrived().peek(nativeSource, tag, Empi.ANY_SOURCE, Empi.ANY_TAG);
        if (early != null) {
            return statusOf(early);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment status = Empi.allocateStatuses(a, 1);
            Empi.iprobe(nativeSource, tag, s.cmp(), flag, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return null;
            }
            if (Empi.statusBytes(status, 0, flag) != MessageHeader.BYTES) {
                return statusOf(s, status, flag);
            }
            // header only: take exactly that message out (same source and tag, so the
            // same message by the native library's ordering) and keep it for the receive
            int src = Empi.statusSource(status, 0);
            int t = Empi.statusTag(status, 0);
            MemorySegment message = Empi.allocateHandles(a, 1);
            Empi.improbe(src, t, s.cmp(), flag, message, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return null;
            }
            ArrivedMessages.Arrival arrival = readHeaderOnly(message, src, t);
            s.arrived().add(arrival);
            return statusOf(arrival);
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

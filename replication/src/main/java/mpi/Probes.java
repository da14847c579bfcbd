package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.ops.Staged;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.twins.Twins;

/** Probes in the program's terms: logical source, user tag, payload size without the header. */
final class Probes {

    private Probes() {}

    /** Where this copy probes for a peer's messages (or any source's: computational copies only). */
    static Endpoint endpoint(CommStructure s, int source) {
        return source == MPI.ANY_SOURCE ? s.receiveAny() : s.receiveFrom(source);
    }

    static int nativeSource(Endpoint e, int source) {
        return source == MPI.ANY_SOURCE ? Empi.ANY_SOURCE : e.rank();
    }

    static void check(Comm comm, int source, int tag) throws MPIException {
        comm.live();
        Args.source(source, comm.peers());
        Args.recvTag(tag);
    }

    /** Status of a message that carries its payload, from its native status. */
    static Status statusOf(CommStructure s, int source, MemorySegment status, MemorySegment scratch) {
        int bytes = Empi.statusBytes(status, 0, scratch);
        int peer = source != MPI.ANY_SOURCE ? source : s.peerOfCmpRank(Empi.statusSource(status, 0));
        return new Status(peer, Empi.statusTag(status, 0), MPI.SUCCESS,
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
    static ArrivedMessages.Arrival readHeaderOnly(MemorySegment message, int tag) {
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Staged header = op.stage(MessageHeader.BYTES);
        byte[] copy = new byte[MessageHeader.BYTES];
        op.start(req -> Empi.imrecv(header.seg(), MessageHeader.BYTES, Empi.BYTE, message, req),
                () -> MemorySegment.copy(header.seg(), ValueLayout.JAVA_BYTE, 0, copy, 0, copy.length));
        Engine.get().await(op);
        return new ArrivedMessages.Arrival(MessageHeader.logicalSource(MemorySegment.ofArray(copy)), tag, copy);
    }

    /**
     * A nonblocking probe. Whether a message is there depends on timing, so
     * the computational copy decides, and its replica then waits for that
     * very message on its own route.
     */
    static Status iprobe(Comm comm, int source, int tag) throws MPIException {
        check(comm, source, tag);
        CommStructure s = comm.live();
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
        }
        long[] d = Twins.follows(s) ? Engine.get().twins().await(s, 3) : null;
        if (d != null) {
            return d[0] == 0 ? null : probeLocal(s.current(), (int) d[1], (int) d[2]);
        }
        Status st = iprobeLocal(s.current(), source, tag);
        Engine.get().twins().decide(s, st == null ? 0 : 1, st == null ? 0 : st.getSource(),
                st == null ? 0 : st.getTag());
        return st;
    }

    /** A blocking probe: only a wildcard source needs the computational copy's decision. */
    static Status probe(Comm comm, int source, int tag) throws MPIException {
        check(comm, source, tag);
        CommStructure s = comm.live();
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
        }
        if (source != MPI.ANY_SOURCE || s.twin() == null) {
            return probeLocal(s, source, tag);
        }
        long[] d = Twins.follows(s) ? Engine.get().twins().await(s, 2) : null;
        if (d != null) {
            return probeLocal(s.current(), (int) d[0], (int) d[1]);
        }
        Status st = probeLocal(s.current(), source, tag);
        Engine.get().twins().decide(s, st.getSource(), st.getTag());
        return st;
    }

    /** Probes this copy's own route once. */
    static Status iprobeLocal(CommStructure s, int source, int tag) throws MPIException {
        ArrivedMessages.Arrival early = s.arrived().peek(source, tag, MPI.ANY_SOURCE, Empi.ANY_TAG);
        if (early != null) {
            return statusOf(early);
        }
        Endpoint from = endpoint(s, source);
        int nativeSource = nativeSource(from, source);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment status = Empi.allocateStatuses(a, 1);
            Empi.iprobe(nativeSource, tag, from.comm(), flag, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return null;
            }
            if (Empi.statusBytes(status, 0, flag) != MessageHeader.BYTES) {
                return statusOf(s, source, status, flag);
            }
            // header only: take exactly that message out (same source and tag, so the
            // same message by the native library's ordering) and keep it for the receive
            int src = Empi.statusSource(status, 0);
            int t = Empi.statusTag(status, 0);
            MemorySegment message = Empi.allocateHandles(a, 1);
            Empi.improbe(src, t, from.comm(), flag, message, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return null;
            }
            ArrivedMessages.Arrival arrival = readHeaderOnly(message, t);
            s.arrived().add(arrival);
            return statusOf(arrival);
        }
    }

    /** Blocking probe of this copy's own route, as a loop of nonblocking ones (never waits inside the library). */
    static Status probeLocal(CommStructure s, int source, int tag) throws MPIException {
        Status[] found = {null};
        Requests.await(() -> (found[0] = iprobeLocal(s.current(), source, tag)) != null);
        return found[0];
    }
}

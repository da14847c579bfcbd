package org.fthp.replication.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.ops.Staged;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.Twins;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;

/**
 * Probes: whether a message of the program is there, seen through this
 * copy's own route. Whether one is there depends on timing, so on a
 * replicated communicator the computational copy decides and its replica
 * then waits for that very message (docs/DESIGN.md §7). A source of
 * {@code MPI_PROC_NULL} is the facade's to answer; it never comes here.
 */
public final class Probes {

    private Probes() {}

    /** Where this copy probes for a peer's messages (or any source's: computational copies only). */
    static Endpoint endpoint(CommStructure s, int source) {
        return source == Empi.ANY_SOURCE ? s.receiveAny() : s.receiveFrom(source);
    }

    static int nativeSource(Endpoint e, int source) {
        return source == Empi.ANY_SOURCE ? Empi.ANY_SOURCE : e.rank();
    }

    /** A message that carries its payload, from its native status. */
    static Probed found(CommStructure s, int source, MemorySegment status, MemorySegment scratch) {
        int bytes = Empi.statusBytes(status, 0, scratch);
        int peer = source != Empi.ANY_SOURCE ? source : s.peerOfCmpRank(Empi.statusSource(status, 0));
        return new Probed(peer, Empi.statusTag(status, 0), Math.max(0, bytes - MessageHeader.BYTES));
    }

    /** A header-only message already taken out of the native library. */
    static Probed found(ArrivedMessages.Arrival a) {
        MemorySegment h = MemorySegment.ofArray(a.header());
        return new Probed(MessageHeader.logicalSource(h), a.tag(), MessageHeader.payloadBytes(h));
    }

    /**
     * Receives a matched header-only message (a large message's header, or an
     * empty message): only its header tells the program's count.
     */
    static ArrivedMessages.Arrival readHeaderOnly(Engine engine, MemorySegment message, int tag) {
        CollectiveOp op = new CollectiveOp(engine.ops());
        Staged header = op.stage(MessageHeader.BYTES);
        byte[] copy = new byte[MessageHeader.BYTES];
        op.start(req -> Empi.imrecv(header.seg(), MessageHeader.BYTES, Empi.BYTE, message, req),
                () -> MemorySegment.copy(header.seg(), ValueLayout.JAVA_BYTE, 0, copy, 0, copy.length));
        engine.await(op);
        return new ArrivedMessages.Arrival(MessageHeader.logicalSource(MemorySegment.ofArray(copy)), tag, copy);
    }

    /** A nonblocking probe; null if nothing is there (as the computational copy saw it). */
    public static Probed iprobe(Engine engine, CommStructure s, int source, int tag) {
        long[] d = Twins.follows(s) ? engine.twins().await(s, 3) : null;
        if (d != null) {
            return d[0] == 0 ? null : probeLocal(engine, s.current(), (int) d[1], (int) d[2]);
        }
        Probed p = iprobeLocal(engine, s.current(), source, tag);
        engine.twins().decide(s, p == null ? 0 : 1, p == null ? 0 : p.source(), p == null ? 0 : p.tag());
        return p;
    }

    /** A blocking probe: only a wildcard source needs the computational copy's decision. */
    public static Probed probe(Engine engine, CommStructure s, int source, int tag) {
        if (source != Empi.ANY_SOURCE || (s.twin() == null && !Twins.follows(s))) {
            return probeLocal(engine, s, source, tag);
        }
        long[] d = Twins.follows(s) ? engine.twins().await(s, 2) : null;
        if (d != null) {
            return probeLocal(engine, s.current(), (int) d[0], (int) d[1]);
        }
        Probed p = probeLocal(engine, s.current(), source, tag);
        engine.twins().decide(s, p.source(), p.tag());
        return p;
    }

    /** Probes this copy's own route once. */
    static Probed iprobeLocal(Engine engine, CommStructure s, int source, int tag) {
        ArrivedMessages.Arrival early = s.arrived().peek(source, tag, Empi.ANY_SOURCE, Empi.ANY_TAG);
        if (early != null) {
            return found(early);
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
                return found(s, source, status, flag);
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
            ArrivedMessages.Arrival arrival = readHeaderOnly(engine, message, t);
            s.arrived().add(arrival);
            return found(arrival);
        }
    }

    /** Blocking probe of this copy's own route, as a loop of nonblocking ones (never waits inside the library). */
    static Probed probeLocal(Engine engine, CommStructure s, int source, int tag) {
        Probed[] found = {null};
        engine.await(() -> (found[0] = iprobeLocal(engine, s.current(), source, tag)) != null);
        return found[0];
    }
}

package org.fthp.replication.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.Twins;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;

/**
 * Matched probes (MPI_Mprobe, MPI_Improbe): as {@link Probes}, but the
 * message found is taken out of matching for one later receive. A source of
 * {@code MPI_PROC_NULL} is the facade's to answer.
 */
public final class MatchedProbes {

    private MatchedProbes() {}

    /** A blocking matched probe: only a wildcard source needs the computational copy's decision. */
    public static MatchedMessage mprobe(Engine engine, CommStructure s, int source, int tag) {
        if (source != Empi.ANY_SOURCE || s.twin() == null) {
            return mprobeLocal(engine, s, source, tag);
        }
        long[] d = Twins.follows(s) ? engine.twins().await(s, 2) : null;
        if (d != null) {
            return mprobeLocal(engine, s.current(), (int) d[0], (int) d[1]);
        }
        MatchedMessage m = mprobeLocal(engine, s.current(), source, tag);
        engine.twins().decide(s, m.probed().source(), m.probed().tag());
        return m;
    }

    /** A nonblocking matched probe, null if nothing is there: its flag is timing, decided by the computational copy. */
    public static MatchedMessage improbe(Engine engine, CommStructure s, int source, int tag) {
        if (s.twin() == null) {
            return improbeLocal(engine, s, source, tag);
        }
        long[] d = Twins.follows(s) ? engine.twins().await(s, 3) : null;
        if (d != null) {
            return d[0] == 0 ? null : mprobeLocal(engine, s.current(), (int) d[1], (int) d[2]);
        }
        MatchedMessage m = improbeLocal(engine, s.current(), source, tag);
        engine.twins().decide(s, m == null ? 0 : 1, m == null ? 0 : m.probed().source(),
                m == null ? 0 : m.probed().tag());
        return m;
    }

    private static MatchedMessage mprobeLocal(Engine engine, CommStructure s, int source, int tag) {
        MatchedMessage[] found = {null};
        engine.await(() -> (found[0] = improbeLocal(engine, s.current(), source, tag)) != null);
        return found[0];
    }

    private static MatchedMessage improbeLocal(Engine engine, CommStructure s, int source, int tag) {
        ArrivedMessages.Arrival early = s.arrived().take(source, tag, Empi.ANY_SOURCE, Empi.ANY_TAG);
        if (early != null && !early.resent()) {
            return MatchedMessage.arrived(early, s);
        }
        if (early != null) {
            // probed before a repair and sent again since: a probe saw it, so it is there; wait for
            // the copy sent again, the first native message of that source with that tag
            int from = early.source();
            int withTag = early.tag();
            MatchedMessage[] found = {null};
            engine.await(() -> (found[0] = improbeNative(engine, s.current(), from, withTag)) != null);
            return found[0];
        }
        return improbeNative(engine, s, source, tag);
    }

    /** Matches a message still in the native library (a header-only one is read at once). */
    private static MatchedMessage improbeNative(Engine engine, CommStructure s, int source, int tag) {
        Endpoint from = Probes.endpoint(s, source);
        // outlives this call: the receive reads the handle
        MemorySegment msg = Arena.ofAuto().allocate(Math.max(8, Empi.HANDLE_BYTES), 8);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment status = Empi.allocateStatuses(a, 1);
            Empi.improbe(Probes.nativeSource(from, source), tag, from.comm(), flag, msg, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return null;
            }
            if (Empi.statusBytes(status, 0, flag) == MessageHeader.BYTES) {
                // header only: its header, not its native size, tells the program's count
                return MatchedMessage.arrived(Probes.readHeaderOnly(engine, msg, Empi.statusTag(status, 0)), s);
            }
            return MatchedMessage.inLibrary(msg, Probes.found(s, source, status, flag), s);
        }
    }
}

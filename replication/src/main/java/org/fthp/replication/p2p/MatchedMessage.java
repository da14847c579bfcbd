package org.fthp.replication.p2p;

import java.lang.foreign.MemorySegment;

import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.CommStructure;

/**
 * A message a matched probe took out of matching, until its receive: either
 * a native message handle (its payload still in the library) or a
 * header-only message already received (its header tells the count).
 */
public final class MatchedMessage {

    private final MemorySegment nativeMessage;
    private final ArrivedMessages.Arrival arrival;
    private final Probed probed;

    private MatchedMessage(MemorySegment nativeMessage, ArrivedMessages.Arrival arrival, Probed probed) {
        this.nativeMessage = nativeMessage;
        this.arrival = arrival;
        this.probed = probed;
    }

    static MatchedMessage inLibrary(MemorySegment nativeMessage, Probed probed) {
        return new MatchedMessage(nativeMessage, null, probed);
    }

    static MatchedMessage arrived(ArrivedMessages.Arrival arrival) {
        return new MatchedMessage(null, arrival, Probes.found(arrival));
    }

    /** What the probe found. */
    public Probed probed() {
        return probed;
    }

    /** Whether the message was already received whole (header only), rather than held by the library. */
    public boolean arrivedWhole() {
        return arrival != null;
    }

    /** Receives it into {@code count} items of {@code type} in {@code buf}; call once. */
    public RecvOp receive(Engine engine, CommStructure s, UserBuffer buf, int count, TypeLayout type) {
        if (arrival != null) {
            return RecvOp.arrived(engine.ops(), engine.records(), s, buf, UserBuffer.START, count, type, arrival);
        }
        return RecvOp.matched(engine.ops(), engine.records(), s, buf, UserBuffer.START, count, type, nativeMessage);
    }
}

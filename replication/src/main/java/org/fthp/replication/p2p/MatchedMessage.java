package org.fthp.replication.p2p;

import java.lang.foreign.MemorySegment;

import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.ops.Transfer;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/**
 * A message a matched probe took out of matching, until its receive: either
 * a native message handle (its payload still in the library) or a
 * header-only message already received (its header tells the count).
 *
 * <p>A repair between the probe and the receive abandons the native
 * communicators the message came on. The message was not consumed, so its
 * sender sends it again, whole, on the new ones: the receive then takes that
 * copy, the first native message of that source with that tag, and leaves
 * what the probe held (a native handle on an abandoned communicator, or a
 * header whose payload or pull descriptor went with it). Receiving the held
 * part instead would pair an old header with the new copy's payload, and
 * leave the new copy's header behind for a later receive.
 */
public final class MatchedMessage {

    private final MemorySegment nativeMessage;
    private final ArrivedMessages.Arrival arrival;
    private final Probed probed;
    /** The structure whose native communicators the message came on. */
    private final CommStructure matchedOn;

    private MatchedMessage(MemorySegment nativeMessage, ArrivedMessages.Arrival arrival, Probed probed,
                           CommStructure matchedOn) {
        this.nativeMessage = nativeMessage;
        this.arrival = arrival;
        this.probed = probed;
        this.matchedOn = matchedOn;
    }

    static MatchedMessage inLibrary(MemorySegment nativeMessage, Probed probed, CommStructure matchedOn) {
        return new MatchedMessage(nativeMessage, null, probed, matchedOn);
    }

    static MatchedMessage arrived(ArrivedMessages.Arrival arrival, CommStructure matchedOn) {
        return new MatchedMessage(null, arrival, Probes.found(arrival), matchedOn);
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
        Transfer t = new Transfer().on(s, Channel.USER).data(buf, UserBuffer.START, count, type)
                .peer(probed.source(), probed.tag());
        if (matchedOn.successor() != null) {
            return RecvOp.post(engine.ops(), engine.records(), t);
        }
        if (arrival != null) {
            return RecvOp.arrived(engine.ops(), engine.records(), t, arrival);
        }
        return RecvOp.matched(engine.ops(), engine.records(), t, nativeMessage);
    }
}

package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;

import org.fthp.msglog.MessageHeader;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/** The header every message of a point-to-point send starts with, a posted send's or a pull send's. */
final class SendHeader {

    private SendHeader() {
    }

    /** The header of a message of {@code payloadBytes}, with {@code extraFlags} beside those its kind implies. */
    static void write(MemorySegment into, CommStructure comm, long sendId, Channel channel, SendMode mode,
                            long payloadBytes, int extraFlags) {
        int flags = (EagerLimit.fits(payloadBytes) ? 0 : MessageHeader.FLAG_RENDEZVOUS)
                | (channel == Channel.INTERNAL ? MessageHeader.FLAG_INTERNAL : 0)
                | (mode == SendMode.SYNCHRONOUS ? MessageHeader.FLAG_SYNCHRONOUS : 0)
                | extraFlags;
        MessageHeader.write(into, comm.commId(), comm.rank(), sendId, flags, (int) payloadBytes);
    }
}

package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/**
 * A point-to-point receive. The first native step receives into staging: a
 * small message whole, a large one only its header. For a large message a
 * second step receives the payload from the internal channel, straight into
 * the program's memory when that is a direct buffer the datatype covers
 * contiguously, else into staging. Then the header is checked and the payload
 * unpacked. Also completes a message matched by a matched probe, or one a
 * probe already took out of the native library.
 */
public final class RecvOp extends NativeOp {

    private final CommStructure comm;
    private final UserBuffer buf;
    private final long startByte;
    private final TypeLayout type;
    private final int count;
    private final MemorySegment staging;
    /** Set once the payload of a large message is being received in a second step. */
    private boolean payloadStep;
    /** The payload went straight into the program's memory: nothing to unpack. */
    private boolean payloadInPlace;
    private int matchedTag;

    private RecvOp(StagingPool pool, CommStructure comm, UserBuffer buf, long startByte, int count, TypeLayout type,
                   long stagingBytes) {
        super(pool, stagingBytes);
        this.staging = staging();
        this.comm = comm;
        this.buf = buf;
        this.startByte = startByte;
        this.count = count;
        this.type = type;
    }

    public static RecvOp post(StagingPool pool, CommStructure comm, UserBuffer buf, long startByte, int count,
                              TypeLayout type, int source, int tag, int procNull, int anySource) {
        return post(pool, comm, Channel.USER, buf, startByte, count, type, source, tag, procNull, anySource);
    }

    public static RecvOp post(StagingPool pool, CommStructure comm, Channel channel, UserBuffer buf, long startByte,
                              int count, TypeLayout type, int source, int tag, int procNull, int anySource) {
        if (source == procNull) {
            RecvOp op = new RecvOp(pool, comm, buf, startByte, count, type, 0);
            op.result(procNull, Empi.ANY_TAG, 0);
            op.completeLocally();
            return op;
        }
        int capacity = capacity(count, type);
        int nativeSource = source == anySource ? Empi.ANY_SOURCE : comm.cmpRankOf(source);
        if (channel == Channel.USER) {
            ArrivedMessages.Arrival early = comm.arrived().take(nativeSource, tag, Empi.ANY_SOURCE, Empi.ANY_TAG);
            if (early != null) {
                return arrived(pool, comm, buf, startByte, count, type, early);
            }
        }
        RecvOp op = new RecvOp(pool, comm, buf, startByte, count, type, capacity);
        Empi.irecv(op.staging, capacity, Empi.BYTE, nativeSource, tag, comm.nativeComm(channel), op.requestSlot());
        return op;
    }

    /** Receives a message already matched by a matched probe. */
    public static RecvOp matched(StagingPool pool, CommStructure comm, UserBuffer buf, long startByte, int count,
                                 TypeLayout type, MemorySegment messageHandle) {
        int capacity = capacity(count, type);
        RecvOp op = new RecvOp(pool, comm, buf, startByte, count, type, capacity);
        Empi.imrecv(op.staging, capacity, Empi.BYTE, messageHandle, op.requestSlot());
        return op;
    }

    /** Completes a header-only message a probe already took out of the native library. */
    public static RecvOp arrived(StagingPool pool, CommStructure comm, UserBuffer buf, long startByte, int count,
                                 TypeLayout type, ArrivedMessages.Arrival arrival) {
        RecvOp op = new RecvOp(pool, comm, buf, startByte, count, type, capacity(count, type));
        MemorySegment.copy(arrival.header(), 0, op.staging, ValueLayout.JAVA_BYTE, 0, MessageHeader.BYTES);
        op.matchedTag = arrival.tag();
        if (!op.startPayloadStep(arrival.nativeSource())) {
            op.completeLocally();
        }
        return op;
    }

    @Override
    protected boolean startNextPhase() {
        if (staging == null || payloadStep) {
            return false;
        }
        matchedTag = Empi.statusTag(status(), 0);
        return startPayloadStep(Empi.statusSource(status(), 0));
    }

    /** If the header in staging announces a separate payload, starts receiving it; returns whether it did. */
    private boolean startPayloadStep(int nativeSource) {
        if ((MessageHeader.flags(staging) & MessageHeader.FLAG_RENDEZVOUS) == 0) {
            return false;
        }
        payloadStep = true;
        long room = count * type.size();
        MemorySegment direct = buf == null ? null : buf.directSegment();
        MemorySegment into;
        if (direct != null && type.isDense() && startByte + room <= direct.byteSize()) {
            payloadInPlace = true;
            into = direct.asSlice(startByte, room);
        } else {
            into = staging.asSlice(MessageHeader.BYTES, room);
        }
        // a payload larger than the receive fails natively with MPI_ERR_TRUNCATE, as a small one would
        Empi.irecv(into, (int) room, Empi.BYTE, nativeSource, MessageHeader.payloadTag(MessageHeader.sendId(staging)),
                comm.internal(), requestSlot());
        return true;
    }

    @Override
    protected void onComplete() {
        if (staging == null) {
            return; // PROC_NULL: the result was recorded when the receive was posted
        }
        // the sender's header says how much payload there is; a longer message than the
        // receive could hold has already failed natively with MPI_ERR_TRUNCATE
        int payload = MessageHeader.payloadBytes(staging);
        if (payload < 0 || payload > staging.byteSize() - MessageHeader.BYTES) {
            throw new IllegalStateException("message with a corrupt FTHP header on communicator " + comm.commId()
                    + ": was it sent by a program outside FTHP-J?");
        }
        if (!payloadInPlace) {
            long items = type.size() == 0 ? 0 : payload / type.size();
            Packer.unpack(staging, MessageHeader.BYTES, buf, startByte, (int) Math.min(items, count), type);
        }
        result(MessageHeader.logicalSource(staging), matchedTag, payload);
    }

    /** A receive whose header has arrived is matched: like MPI, cancelling it then does nothing. */
    @Override
    public void cancel() {
        if (!payloadStep) {
            super.cancel();
        }
    }

    private static int capacity(int count, TypeLayout type) {
        long bytes = MessageHeader.BYTES + count * type.size();
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("receive of " + bytes + " bytes is larger than 2 GiB");
        }
        return (int) bytes;
    }

    @Override
    protected void releaseBuffers() {
        // the staging bytes go back with the operation's block
    }
}

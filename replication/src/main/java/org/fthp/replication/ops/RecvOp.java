package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/**
 * A point-to-point receive into staging memory; on completion the header is
 * checked and stripped and the payload unpacked into the user's buffer.
 * Also completes a matched message ({@code MPI_Imrecv}).
 */
public final class RecvOp extends NativeOp {

    private final CommStructure comm;
    private final UserBuffer buf;
    private final long startByte;
    private final TypeLayout type;
    private final int count;
    private final MemorySegment staging;

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
        RecvOp op = new RecvOp(pool, comm, buf, startByte, count, type, capacity);
        int nativeSource = source == anySource ? Empi.ANY_SOURCE : comm.cmpRankOf(source);
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

    @Override
    protected void onComplete() {
        if (staging == null) {
            return; // PROC_NULL: the result was recorded when the receive was posted
        }
        MemorySegment st = status();
        // the sender's header says how much payload follows; a longer message than the
        // receive could hold has already failed natively with MPI_ERR_TRUNCATE
        int payload = MessageHeader.payloadBytes(staging);
        if (payload < 0 || payload > staging.byteSize() - MessageHeader.BYTES) {
            throw new IllegalStateException("message with a corrupt FTHP header on communicator " + comm.commId()
                    + ": was it sent by a program outside FTHP-J?");
        }
        long items = type.size() == 0 ? 0 : payload / type.size();
        Packer.unpack(staging, MessageHeader.BYTES, buf, startByte, (int) Math.min(items, count), type);
        result(MessageHeader.logicalSource(staging), Empi.statusTag(st, 0), payload);
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

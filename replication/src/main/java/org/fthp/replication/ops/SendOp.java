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
 * A point-to-point send: header and packed data in one staging segment, sent
 * as one native message with the user's tag.
 */
public final class SendOp extends NativeOp {

    public enum Mode { STANDARD, SYNCHRONOUS, BUFFERED, READY }

    public SendOp(StagingPool pool, CommStructure comm, UserBuffer buf, long startByte, int count,
                  TypeLayout type, int dest, int tag, Mode mode, int procNull) {
        this(pool, comm, Channel.USER, buf, startByte, count, type, dest, tag, mode, procNull);
    }

    public SendOp(StagingPool pool, CommStructure comm, Channel channel, UserBuffer buf, long startByte, int count,
                  TypeLayout type, int dest, int tag, Mode mode, int procNull) {
        super(pool, dest == procNull ? 0 : MessageHeader.BYTES + count * type.size());
        if (dest == procNull) {
            completeLocally();
            return;
        }
        long payload = count * type.size();
        if (MessageHeader.BYTES + payload > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("message of " + payload + " bytes is larger than 2 GiB");
        }
        MemorySegment staging = staging();
        MessageHeader.write(staging, comm.commId(), comm.rank(), comm.sendIds().next(dest), 0, (int) payload);
        Packer.pack(buf, startByte, count, type, staging, MessageHeader.BYTES);
        int bytes = (int) (MessageHeader.BYTES + payload);
        if (mode == Mode.SYNCHRONOUS) {
            Empi.issend(staging, bytes, Empi.BYTE, comm.cmpRankOf(dest), tag, comm.nativeComm(channel), requestSlot());
        } else {
            Empi.isend(staging, bytes, Empi.BYTE, comm.cmpRankOf(dest), tag, comm.nativeComm(channel), requestSlot());
        }
    }

    @Override
    protected void onComplete() {
    }

    @Override
    protected void releaseBuffers() {
        // the staging bytes go back with the operation's block
    }
}

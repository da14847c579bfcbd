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
        super(pool, dest == procNull ? 0 : stagingBytes(buf, count, type));
        if (dest == procNull) {
            completeLocally();
            return;
        }
        long payload = count * type.size();
        if (MessageHeader.BYTES + payload > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("message of " + payload + " bytes is larger than 2 GiB");
        }
        MemorySegment staging = staging();
        long sendId = comm.sendIds().next(dest);
        boolean rendezvous = payload >= Rendezvous.THRESHOLD_BYTES;
        MessageHeader.write(staging, comm.commId(), comm.rank(), sendId,
                rendezvous ? MessageHeader.FLAG_RENDEZVOUS : 0, (int) payload);
        MemorySegment inPlace = sendsInPlace(buf, count, type) ? buf.directSegment().asSlice(startByte, payload) : null;
        if (inPlace == null) {
            Packer.pack(buf, startByte, count, type, staging, MessageHeader.BYTES);
        }
        int nativeDest = comm.cmpRankOf(dest);
        long nativeComm = comm.nativeComm(channel);
        // a large payload goes separately, so the receiver can take it straight into its memory
        int bytes = rendezvous ? MessageHeader.BYTES : (int) (MessageHeader.BYTES + payload);
        if (mode == Mode.SYNCHRONOUS) {
            Empi.issend(staging, bytes, Empi.BYTE, nativeDest, tag, nativeComm, requestSlot());
        } else {
            Empi.isend(staging, bytes, Empi.BYTE, nativeDest, tag, nativeComm, requestSlot());
        }
        if (rendezvous) {
            MemorySegment from = inPlace != null ? inPlace : staging.asSlice(MessageHeader.BYTES);
            Empi.isend(from, (int) payload, Empi.BYTE, nativeDest,
                    MessageHeader.payloadTag(sendId), comm.internal(), secondRequestSlot());
        }
    }

    /**
     * A large payload in a direct buffer, covered contiguously, is sent from
     * the program's own memory: it cannot move, and MPI forbids changing it
     * until the send completes. Arrays (the GC moves them) and small messages
     * are copied into staging.
     */
    private static boolean sendsInPlace(UserBuffer buf, int count, TypeLayout type) {
        return buf != null && buf.directSegment() != null && type.isDense()
                && count * type.size() >= Rendezvous.THRESHOLD_BYTES;
    }

    private static long stagingBytes(UserBuffer buf, int count, TypeLayout type) {
        return sendsInPlace(buf, count, type) ? MessageHeader.BYTES : MessageHeader.BYTES + count * type.size();
    }

    @Override
    protected void onComplete() {
    }

    @Override
    protected void releaseBuffers() {
        // the staging bytes go back with the operation's block
    }
}

package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.msglog.PullDescriptor;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.staging.PullMemory;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.tags.InternalTags;

/**
 * A large unlogged send whose payload its receiver copies out of this
 * process's {@link PullMemory} ({@code MessageHeader.FLAG_PULL}): the
 * header goes with the program's tag as for any large message, and on the
 * internal channel, where the payload would go, a {@link PullDescriptor}
 * saying where it waits. The send completes on the receiver's reply: it
 * copied the payload, or (another node) asks for it, and the payload then
 * goes as a native message after all.
 *
 * <p>Steps, each one native request: header and descriptor (both eager, done
 * at once); the reply; for a push, the payload. Only for a job without
 * replicas: nothing is logged, so no repair ever needs to send it again.
 */
final class PullSend extends NativeOp {

    /**
     * Payloads from this many bytes are offered (fthp.pull.bytes; 0 turns pulls
     * off). Below it a payload costs less through the native library than the
     * extra reply does.
     */
    static final long THRESHOLD_BYTES = threshold();

    private static final long DESCRIPTOR_AT = MessageHeader.BYTES;

    private enum Step { OFFERED, AWAITING_REPLY, PUSHING }

    private final CommStructure comm;
    private final Endpoint to;
    private final PullMemory memory;
    private final PullMemory.Block block;
    private final long payloadBytes;
    private final long sendId;
    private Step step = Step.OFFERED;
    /** Whether the receiver replied: until then it may still read the block, which therefore is not reused. */
    private boolean replied;

    private static long threshold() {
        long bytes = Long.getLong("fthp.pull.bytes", 64L << 10);
        String env = System.getenv("FTHP_PULL_BYTES");
        if (env != null && !env.isBlank()) {
            try {
                bytes = Long.parseLong(env.strip());
            } catch (NumberFormatException e) {
                RuntimeMessages.say("fthp: FTHP_PULL_BYTES=" + env + " is not a number of bytes; using " + bytes);
            }
        }
        return bytes <= 0 ? Long.MAX_VALUE : Math.max(bytes, Rendezvous.THRESHOLD_BYTES);
    }

    /** Whether a payload of this size and mode is offered for pulling at all. */
    static boolean offers(long payloadBytes, SendOp.Mode mode) {
        // a buffered send completes as soon as its bytes are in the attached buffer, not on a reply
        return payloadBytes >= THRESHOLD_BYTES && mode != SendOp.Mode.BUFFERED;
    }

    /** Offers the payload to {@code to}; null when this process has no pull memory or no room in it. */
    static NativeOp offer(OpContext context, CommStructure comm, Endpoint to, Channel channel, UserBuffer buf,
                          long startByte, int count, TypeLayout type, long sendId, int tag, SendOp.Mode mode) {
        PullMemory memory = context.pullMemory();
        long payloadBytes = count * type.size();
        PullMemory.Block block = memory == null ? null : memory.acquire(payloadBytes);
        if (block == null) {
            return null;
        }
        return new PullSend(context, comm, to, channel, buf, startByte, count, type, sendId, tag, mode, memory, block);
    }

    private PullSend(OpContext context, CommStructure comm, Endpoint to, Channel channel, UserBuffer buf,
                     long startByte, int count, TypeLayout type, long sendId, int tag, SendOp.Mode mode,
                     PullMemory memory, PullMemory.Block block) {
        super(context, MessageHeader.BYTES + PullDescriptor.BYTES);
        this.comm = comm;
        this.to = to;
        this.memory = memory;
        this.block = block;
        this.payloadBytes = count * type.size();
        this.sendId = sendId;
        MemorySegment message = staging();
        SendOp.writeHeader(message, comm, sendId, channel, mode, payloadBytes, MessageHeader.FLAG_PULL);
        Packer.pack(buf, startByte, count, type, block.segment(), 0);
        MemorySegment descriptor = message.asSlice(DESCRIPTOR_AT, PullDescriptor.BYTES);
        memory.describe(descriptor, block, payloadBytes);
        long nativeComm = to.comm(channel);
        if (mode == SendOp.Mode.SYNCHRONOUS) {
            Empi.issend(message, MessageHeader.BYTES, Empi.BYTE, to.rank(), tag, nativeComm, requestSlot());
        } else {
            Empi.isend(message, MessageHeader.BYTES, Empi.BYTE, to.rank(), tag, nativeComm, requestSlot());
        }
        Empi.isend(descriptor, PullDescriptor.BYTES, Empi.BYTE, to.rank(), MessageHeader.payloadTag(sendId),
                to.internal(), secondRequestSlot());
    }

    @Override
    protected boolean startNextPhase() {
        switch (step) {
            case OFFERED -> {
                step = Step.AWAITING_REPLY;
                Empi.irecv(intScratch(), 4, Empi.BYTE, to.rank(), InternalTags.PULL_REPLY.tag(sendId), to.internal(),
                        requestSlot());
                return true;
            }
            case AWAITING_REPLY -> {
                replied = true;
                if (intScratch().get(ValueLayout.JAVA_INT, 0) != PullDescriptor.REPLY_PUSH) {
                    return false;
                }
                step = Step.PUSHING;
                Empi.isend(block.segment(), (int) payloadBytes, Empi.BYTE, to.rank(), MessageHeader.payloadTag(sendId),
                        to.internal(), requestSlot());
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** Like a send MPI could not cancel: the receiver may be copying the payload already. */
    @Override
    public void cancel() {
    }

    /** Never called: a job without replicas has no repair (a failure restarts it from its checkpoint). */
    @Override
    protected NativeOp reissue() {
        return null;
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    @Override
    protected void onComplete() {
    }

    /**
     * After the reply nothing reads the payload any more. Without one (a native error ended the send) the
     * receiver may still copy it, so the block is never reused.
     */
    @Override
    protected void releaseBuffers() {
        if (replied) {
            memory.release(block);
        }
    }
}

package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.msglog.PullDescriptor;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.staging.PullMemory;
import org.fthp.replication.staging.SharedMessage;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.sdc.SendDigest;

/**
 * A large send whose payload its receiver copies out of this process's
 * {@link PullMemory} ({@code MessageHeader.FLAG_PULL}): the
 * header goes with the program's tag as for any large message, and on the
 * internal channel, where the payload would go, a {@link PullDescriptor}
 * saying where it waits. The send completes on the receiver's reply: it
 * copied the payload, or (another node) asks for it, and the payload then
 * goes as a native message after all.
 *
 * <p>Steps, each one native request: header and descriptor (both eager, done
 * at once); the reply; for a push, the payload.
 *
 * <p>Unlogged (a job without replicas), the payload is packed into a block of
 * its own, given back on the reply. Logged, it is the payload of the message's
 * {@link SharedMessage} in pull memory (the log entry), of which the send
 * holds one reference until the reply; each copy of the destination gets a
 * send of its own. A repair that abandons a logged one treats it as
 * {@link SendOp}: the log sends the message again (natively) to a copy that
 * lacks it, and a synchronous one completes once a copy matched it. Until a
 * reply came, a receiver may still be copying, so the memory is never given
 * back then (an abandoned operation never releases anything).
 */
final class PullSend extends NativeOp {

    /** Abandoned by a rollback, it changes nothing the program sees: an offer reads its payload; its reply lands in the engine's scratch. */
    @Override
    boolean onlyReadsProgramMemory() {
        return true;
    }

    /**
     * Payloads from this many bytes are offered (FTHP_PULL_BYTES, else
     * fthp.pull.bytes; 0 turns pulls off). By default every payload that travels
     * apart from its header ({@link Rendezvous#THRESHOLD_BYTES}): even at 4 KiB
     * the native library's transfer of such a message (a cross-process copy
     * that pins pages) costs more than the descriptor, the copy and the reply
     * (bench/run.sh's ping-pong with FTHP_PULL_BYTES=0 shows the other way).
     */
    static final long THRESHOLD_BYTES = threshold();

    private static final long DESCRIPTOR_AT = MessageHeader.BYTES;

    private enum Step { OFFERED, AWAITING_REPLY, PUSHING }

    private final CommStructure comm;
    private final MessageRecords records;
    private final Endpoint to;
    /** An unlogged payload's own block and where it goes back; both null for a logged one. */
    private final PullMemory memory;
    private final PullMemory.Block block;
    /** A logged payload's message (one reference of this send's own), or null. */
    private final SharedMessage shared;
    /** Where the payload waits: what a push sends. */
    private final MemorySegment payload;
    private final long payloadBytes;
    private final long sendId;
    private final int dest;
    private final SendMode mode;
    private Step step = Step.OFFERED;
    /** Whether the receiver replied: until then it may still read the block, which therefore is not reused. */
    private boolean replied;

    private static long threshold() {
        long bytes = Long.getLong("fthp.pull.bytes", Rendezvous.THRESHOLD_BYTES);
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
    static boolean offers(long payloadBytes, SendMode mode) {
        // a buffered send completes as soon as its bytes are in the attached buffer, not on a reply
        return payloadBytes >= THRESHOLD_BYTES && mode != SendMode.BUFFERED;
    }

    /**
     * Offers an unlogged payload to {@code to}, packed into a block of its own; null when this process has no
     * pull memory or no room in it.
     */
    static NativeOp offer(OpContext context, MessageRecords records, Transfer t, Endpoint to, long sendId) {
        PullMemory memory = context.pullMemory();
        PullMemory.Block block = memory == null ? null : memory.acquire(t.payloadBytes());
        if (block == null) {
            return null;
        }
        SendDigest digest = SendDigest.active();
        if (digest != null) {
            digest.packSent(t.comm().commId(), t.peer(), t.tag(), t.buf(), t.startByte(), t.count(), t.type(),
                    block.segment(), 0);
        } else {
            Packer.pack(t.buf(), t.startByte(), t.count(), t.type(), block.segment(), 0);
        }
        return new PullSend(context, records, t, to, sendId, memory, block, null);
    }

    /**
     * Memory for a logged message of {@code messageBytes} (header and payload) in this process's pull memory,
     * its one reference held by the caller; null when there is no pull memory or no room in it.
     */
    static SharedMessage allocateLogged(OpContext context, long messageBytes) {
        PullMemory memory = context.pullMemory();
        return memory == null ? null : SharedMessage.allocate(memory, messageBytes);
    }

    /**
     * Offers the payload of a logged message (packed, in memory from {@link #allocateLogged}) to {@code to};
     * the send takes over {@code reference}, a reference of the message's own.
     */
    static NativeOp offerLogged(OpContext context, MessageRecords records, Transfer t, Endpoint to,
                                SharedMessage reference, long sendId) {
        return new PullSend(context, records, t, to, sendId, null, null, reference);
    }

    private PullSend(OpContext context, MessageRecords records, Transfer t, Endpoint to, long sendId,
                     PullMemory memory, PullMemory.Block block, SharedMessage shared) {
        super(context, MessageHeader.BYTES + PullDescriptor.BYTES);
        this.comm = t.comm();
        this.records = records;
        this.to = to;
        this.memory = memory;
        this.block = block;
        this.shared = shared;
        this.payloadBytes = t.payloadBytes();
        this.sendId = sendId;
        this.dest = t.peer();
        this.mode = t.mode();
        MemorySegment message = staging();
        SendHeader.write(message, comm, sendId, t.channel(), mode, payloadBytes, MessageHeader.FLAG_PULL);
        MemorySegment descriptor = message.asSlice(DESCRIPTOR_AT, PullDescriptor.BYTES);
        if (shared != null) {
            this.payload = shared.message().asSlice(MessageHeader.BYTES, payloadBytes);
            shared.describe(descriptor, MessageHeader.BYTES, payloadBytes);
        } else {
            this.payload = block.segment().asSlice(0, payloadBytes);
            memory.describe(descriptor, block, payloadBytes);
        }
        mode.start(message, MessageHeader.BYTES, to.rank(), t.tag(), to.comm(t.channel()), requestSlot());
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
                Empi.isend(payload, (int) payloadBytes, Empi.BYTE, to.rank(), MessageHeader.payloadTag(sendId),
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

    /**
     * As {@link SendOp#reissue}: the message is in the log, which sends it again to a copy that lacks it; a
     * synchronous send goes on until a copy matched it. (A job without replicas has no repair: a failure
     * restarts it from its checkpoint.)
     */
    @Override
    protected NativeOp reissue() {
        return SyncMatch.afterRepair(context, records, comm, mode, dest, sendId);
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    /**
     * After the reply nothing reads the payload any more. Without one (a native error ended the send) the
     * receiver may still copy it, so the block is never reused (a logged message keeps this send's reference).
     */
    @Override
    protected void releaseBuffers() {
        if (!replied) {
            return;
        }
        if (shared != null) {
            shared.release();
        } else {
            memory.release(block);
        }
    }
}

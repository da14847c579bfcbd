package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.msglog.MessageHeader;
import org.fthp.msglog.PullDescriptor;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.twins.TwinLink;

/**
 * A point-to-point receive. The first native step receives into staging: a
 * small message whole, a large one only its header. For a large message a
 * second step receives the payload from the internal channel, straight into
 * the program's memory when that is a direct buffer the datatype covers
 * contiguously, else into staging. Then the header is checked and the payload
 * unpacked. Also completes a message matched by a matched probe, or one a
 * probe already took out of the native library.
 *
 * <p>A large message from a sender on this node may instead announce where its
 * payload waits in the sender's shared memory ({@code MessageHeader.FLAG_PULL},
 * ops.PullSend): the second step then receives that descriptor, copies the
 * payload straight into the program's memory and replies, or, when it cannot
 * read the sender's memory, asks for the payload and receives it as above.
 *
 * <p>Under replication a receive from {@code ANY_SOURCE} is decided by the
 * computational copy, which forwards the source and tag it matched; the
 * replica waits for them and then receives exactly that message (its
 * sources' messages arrive in the same order, so the first one with that tag
 * is the same message).
 */
public final class RecvOp extends NativeOp {

    /** Source and tag of a wildcard match, forwarded to the replica. */
    private static final int DECISION_BYTES = 8;

    private final CommStructure comm;
    private final MessageRecords records;
    private final Channel channel;
    private final UserBuffer buf;
    private final long startByte;
    private final TypeLayout type;
    private final int count;
    private final int capacity;
    private final MemorySegment staging;
    /** Set once the payload of a large message is being received in a second step. */
    private boolean payloadStep;
    /** The payload went straight into the program's memory: nothing to unpack. */
    private boolean payloadInPlace;
    private int matchedTag;
    /** A large payload longer than the receive: taken whole into here, then reported as truncated. */
    private MemorySegment overflow;
    /** What the program asked for, kept to start the receive again after a repair. */
    private int postedSource;
    private int postedTag;
    private int anySource;
    private int procNull;
    /** A replica's wildcard receive that has its twin's decision: it receives exactly that message. */
    private boolean decided;
    /** Where a pulled payload's descriptor is received, once its header said so; null otherwise. */
    private MemorySegment pullDescriptor;
    /** The descriptor's own memory, when the receive's staging has no room for it. */
    private MemorySegment pullDescriptorMemory;
    /** A pulled payload longer than the receive: nothing was copied, and the receive reports truncation. */
    private boolean pullTruncated;
    /** Set once the reply to a pulled payload is on its way: what follows is its completion, or the pushed payload. */
    private boolean pullReplied;

    private RecvOp(OpContext context, MessageRecords records, Transfer t, int capacity, boolean decides) {
        super(context, capacity == 0 ? 0 : capacity + (decides ? DECISION_BYTES : 0));
        this.staging = staging();
        this.records = records;
        this.comm = t.comm();
        this.channel = t.channel();
        this.buf = t.buf();
        this.startByte = t.startByte();
        this.count = t.count();
        this.type = t.type();
        this.capacity = capacity;
    }

    /** Receives from {@code t}'s peer (a rank, the wildcard, or no process) with its tag. */
    public static RecvOp post(OpContext context, MessageRecords records, Transfer t) {
        int source = t.peer();
        if (source == t.procNull()) {
            RecvOp op = new RecvOp(context, records, t, 0, false);
            op.result(t.procNull(), Empi.ANY_TAG, 0);
            op.completeLocally();
            return op;
        }
        return post(context, records, t, source == t.anySource() ? t.comm().nextDecisionTag() : -1);
    }

    /** Posts a receive whose twin decision (for a wildcard source) has number {@code twinTag}. */
    private static RecvOp post(OpContext context, MessageRecords records, Transfer t, int twinTag) {
        CommStructure comm = t.comm();
        int source = t.peer();
        int tag = t.tag();
        int anySource = t.anySource();
        int capacity = capacity(t.count(), t.type());
        TwinLink twin = source == anySource ? comm.twin() : null;
        byte[] inherited = source == anySource && twin == null && twinTag >= 0
                ? comm.twinRecords().takeInherited(twinTag) : null;
        RecvOp op = new RecvOp(context, records, t, capacity, twin != null || inherited != null);
        op.remember(source, tag, anySource, t.procNull());
        if (inherited != null) {
            // promoted: the dead twin had matched this one and may have sent what depends on it; match the same
            MemorySegment.copy(inherited, 0, op.decision(), ValueLayout.JAVA_BYTE, 0,
                    Math.min(inherited.length, DECISION_BYTES));
            if (!op.afterTwin()) {
                op.completeLocally();
            }
            return op;
        }
        if (twin != null && twin.follows()) {
            op.followTwin(twin, twinTag, op.decision());
            return op;
        }
        if (twin != null) {
            op.forwardWhenDone(twin, twinTag, op.decision());
        }
        op.start(source == anySource ? anySource : source, tag, anySource);
        return op;
    }

    private void remember(int source, int tag, int anySource, int procNull) {
        this.postedSource = source;
        this.postedTag = tag;
        this.anySource = anySource;
        this.procNull = procNull;
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    /**
     * The same receive on the repaired communicator. Whatever this one had
     * half-received is sent again (nothing unconsumed is lost), so it starts
     * from the beginning; a replica keeps its twin's wildcard decision, or
     * makes the decision itself if it was promoted before the decision came.
     */
    @Override
    protected NativeOp reissue() {
        // a matched probe's message too: not consumed, so sent again on the new communicators (MatchedMessage)
        CommStructure now = comm.current();
        Transfer again = new Transfer().on(now, channel).data(buf, startByte, count, type)
                .wildcards(procNull, anySource);
        if (decided) {
            MemorySegment d = decision();
            RecvOp op = new RecvOp(context, records, again, capacity, true);
            op.remember(d.get(ValueLayout.JAVA_INT, 0), d.get(ValueLayout.JAVA_INT, 4), anySource, procNull);
            op.start(op.postedSource, op.postedTag, anySource);
            return op;
        }
        // a wildcard receive keeps its decision number: the twin (if it survived) uses the same one
        return post(context, records, again.peer(postedSource, postedTag), twinTag());
    }

    /** Takes an arrived message if one matches, else posts the native receive. */
    private void start(int source, int tag, int anySource) {
        if (channel == Channel.USER) {
            ArrivedMessages.Arrival early = comm.arrived().take(source, tag, anySource, Empi.ANY_TAG);
            if (early != null && !early.resent()) {
                takeArrival(early);
                return;
            }
            if (early != null) {
                // probed before a repair and sent again since: receive exactly that message (kept as
                // the program posted it: a wildcard's decision still goes to the twin after another repair)
                source = early.source();
                tag = early.tag();
            }
        }
        Endpoint from = source == anySource ? comm.receiveAny() : comm.receiveFrom(source);
        int nativeSource = source == anySource ? Empi.ANY_SOURCE : from.rank();
        Empi.irecv(staging, capacity, Empi.BYTE, nativeSource, tag, from.comm(channel), requestSlot());
    }

    /** Receives a message already matched by a matched probe: from {@code source} (peer rank) with {@code tag}. */
    public static RecvOp matched(OpContext context, MessageRecords records, Transfer t, MemorySegment messageHandle) {
        int capacity = capacity(t.count(), t.type());
        RecvOp op = new RecvOp(context, records, t, capacity, false);
        op.remember(t.peer(), t.tag(), Empi.ANY_SOURCE, Empi.PROC_NULL);
        Empi.imrecv(op.staging, capacity, Empi.BYTE, messageHandle, op.requestSlot());
        return op;
    }

    /** Completes a header-only message a probe already took out of the native library. */
    public static RecvOp arrived(OpContext context, MessageRecords records, Transfer t,
                                 ArrivedMessages.Arrival arrival) {
        RecvOp op = new RecvOp(context, records, t, capacity(t.count(), t.type()), false);
        op.remember(arrival.source(), arrival.tag(), Empi.ANY_SOURCE, Empi.PROC_NULL);
        op.takeArrival(arrival);
        return op;
    }

    private void takeArrival(ArrivedMessages.Arrival arrival) {
        if (!adoptArrival(arrival)) {
            completeLocally();
        }
    }

    /** Takes over a message a probe already read; returns whether its payload is still to come. */
    private boolean adoptArrival(ArrivedMessages.Arrival arrival) {
        MemorySegment.copy(arrival.header(), 0, staging, ValueLayout.JAVA_BYTE, 0, MessageHeader.BYTES);
        matchedTag = arrival.tag();
        return startPayloadStep();
    }

    private MemorySegment decision() {
        return staging.asSlice(capacity, DECISION_BYTES);
    }

    @Override
    protected MemorySegment twinPayload() {
        MemorySegment d = decision();
        d.set(ValueLayout.JAVA_INT, 0, MessageHeader.logicalSource(staging));
        d.set(ValueLayout.JAVA_INT, 4, matchedTag);
        return d;
    }

    /** The twin said which message it matched: receive that one. */
    @Override
    protected boolean afterTwin() {
        decided = true;
        MemorySegment d = decision();
        int source = d.get(ValueLayout.JAVA_INT, 0);
        int tag = d.get(ValueLayout.JAVA_INT, 4);
        if (channel == Channel.USER) {
            ArrivedMessages.Arrival early = comm.arrived().take(source, tag, Empi.ANY_SOURCE, Empi.ANY_TAG);
            if (early != null && !early.resent()) {
                return adoptArrival(early);
            }
            // a resent arrival: the copy sent again is the first native message of that source and tag
        }
        Endpoint from = comm.receiveFrom(source);
        Empi.irecv(staging, capacity, Empi.BYTE, from.rank(), tag, from.comm(channel), requestSlot());
        return true;
    }

    @Override
    protected boolean startNextPhase() {
        if (pullDescriptor != null && !pullReplied) {
            return pull();
        }
        if (staging == null || payloadStep) {
            return false;
        }
        matchedTag = Empi.statusTag(status(), 0);
        return startPayloadStep();
    }

    /** If the header in staging announces a separate payload, starts receiving it; returns whether it did. */
    private boolean startPayloadStep() {
        if ((MessageHeader.flags(staging) & MessageHeader.FLAG_RENDEZVOUS) == 0) {
            return false;
        }
        payloadStep = true;
        if ((MessageHeader.flags(staging) & MessageHeader.FLAG_PULL) != 0) {
            receivePullDescriptor();
            return true;
        }
        receivePayload();
        return true;
    }

    /** Posts the receive of a large payload (its header is in staging) into its final place, or staging. */
    private void receivePayload() {
        long room = count * type.size();
        long announced = MessageHeader.payloadBytes(staging);
        MemorySegment direct = buf == null ? null : buf.directSegment();
        MemorySegment into;
        if (announced > room) {
            // never post a receive shorter than a large message: Open MPI 4.1's single-copy path
            // then reads past the end of the receive buffer. Take it whole and report truncation.
            overflow = pool.acquire(announced);
            into = overflow;
            room = announced;
        } else if (direct != null && type.isDense() && startByte + room <= direct.byteSize()) {
            payloadInPlace = true;
            into = direct.asSlice(startByte, room);
        } else {
            into = staging.asSlice(MessageHeader.BYTES, room);
        }
        receiveSecondMessage(into, (int) room);
    }

    /**
     * Posts the receive of a large message's second native message (its payload, or where a pulled one waits):
     * from the header's sender, on the internal channel, with the payload's tag.
     */
    private void receiveSecondMessage(MemorySegment into, int bytes) {
        Endpoint from = comm.receiveFrom(MessageHeader.logicalSource(staging));
        Empi.irecv(into, bytes, Empi.BYTE, from.rank(), MessageHeader.payloadTag(MessageHeader.sendId(staging)),
                from.internal(), requestSlot());
    }

    /** Posts the receive of where a pulled payload waits (on the payload's tag). */
    private void receivePullDescriptor() {
        if (capacity - MessageHeader.BYTES >= PullDescriptor.BYTES) {
            pullDescriptor = staging.asSlice(MessageHeader.BYTES, PullDescriptor.BYTES);
        } else {
            pullDescriptorMemory = pool.acquire(PullDescriptor.BYTES);
            pullDescriptor = pullDescriptorMemory.asSlice(0, PullDescriptor.BYTES);
        }
        receiveSecondMessage(pullDescriptor, PullDescriptor.BYTES);
    }

    /**
     * The descriptor arrived: copies the payload from the sender's memory into the program's and replies
     * "pulled"; or, if this process cannot read that memory, replies "push" and receives the payload itself.
     * A payload longer than the receive is not copied at all: the receive then reports truncation.
     */
    private boolean pull() {
        pullReplied = true;
        long room = count * type.size();
        long announced = MessageHeader.payloadBytes(staging);
        MemorySegment payload = context.peerMemory().payload(pullDescriptor);
        boolean readable = payload != null && payload.byteSize() == announced;
        records.receivedOffered(readable);
        if (!readable) {
            reply(PullDescriptor.REPLY_PUSH, secondRequestSlot());
            receivePayload();
            return true;
        }
        if (announced > room) {
            pullTruncated = true;
        } else {
            long items = type.size() == 0 ? 0 : announced / type.size();
            Packer.unpack(payload, 0, buf, startByte, (int) Math.min(items, count), type);
            payloadInPlace = true;
        }
        reply(PullDescriptor.REPLY_PULLED, requestSlot());
        return true;
    }

    /** Tells the sender of a pulled payload {@code code} (PullDescriptor's REPLY_*), from this operation's scratch. */
    private void reply(int code, MemorySegment request) {
        MemorySegment reply = intScratch();
        reply.set(ValueLayout.JAVA_INT, 0, code);
        Endpoint to = comm.receiveFrom(MessageHeader.logicalSource(staging));
        Empi.isend(reply, 4, Empi.BYTE, to.rank(), InternalTags.PULL_REPLY.tag(MessageHeader.sendId(staging)),
                to.internal(), request);
    }

    @Override
    protected void onComplete() {
        if (staging == null) {
            return; // PROC_NULL: the result was recorded when the receive was posted
        }
        // the sender's header says how much payload there is; a longer small message than the
        // receive could hold has already failed natively with MPI_ERR_TRUNCATE
        int payload = MessageHeader.payloadBytes(staging);
        if (overflow != null || pullTruncated) {
            records.consumed(comm.commId(), MessageHeader.logicalSource(staging), MessageHeader.sendId(staging),
                    payload);
            throw new EmpiException("MPI_ERR_TRUNCATE: message truncated: " + payload + " bytes sent, room for "
                    + (capacity - MessageHeader.BYTES), TRUNCATE, TRUNCATE);
        }
        if (payload < 0 || payload > capacity - MessageHeader.BYTES) {
            throw new MpiError(MpiError.ERR_INTERN, "message with a corrupt FTHP header on communicator " + comm.commId()
                    + ": was it sent by a program outside FTHP-J?");
        }
        if (!payloadInPlace) {
            long items = type.size() == 0 ? 0 : payload / type.size();
            Packer.unpack(staging, MessageHeader.BYTES, buf, startByte, (int) Math.min(items, count), type);
        }
        int source = MessageHeader.logicalSource(staging);
        records.consumed(comm.commId(), source, MessageHeader.sendId(staging), payload);
        if ((MessageHeader.flags(staging) & MessageHeader.FLAG_SYNCHRONOUS) != 0) {
            records.matchedSynchronous(comm.commId(), source, MessageHeader.sendId(staging));
        }
        result(source, matchedTag, payload);
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
        if (bytes > Integer.MAX_VALUE - DECISION_BYTES) {
            throw new MpiError(MpiError.ERR_ARG, "receive of " + bytes + " bytes is larger than 2 GiB");
        }
        return (int) bytes;
    }

    private static final int TRUNCATE = Empi.constant("MPI_ERR_TRUNCATE");

    @Override
    protected void releaseBuffers() {
        // the staging bytes go back with the operation's block
        if (overflow != null) {
            pool.release(overflow);
            overflow = null;
        }
        if (pullDescriptorMemory != null) {
            pool.release(pullDescriptorMemory);
            pullDescriptorMemory = null;
        }
    }
}

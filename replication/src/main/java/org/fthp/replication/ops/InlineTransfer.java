package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.staging.OpBlock;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.sdc.SendDigest;

/**
 * A small blocking send or receive of a job without replicas, done inside the
 * call without an operation object. Such a job logs nothing, has no twin to
 * decide for and no repair to survive (a lost rank ends the run, or restarts
 * it from a checkpoint), so what {@link SendOp} and {@link RecvOp} keep for
 * those is dead weight here: the objects, the list of operations in flight,
 * the detached send tested later. The message is the same (header, payload,
 * tag, channel), so either side may take the general path while the other
 * takes this one.
 *
 * <p>A send writes header and payload into a staging block, starts the native
 * send and tests it once: Open MPI completes a small eager send at once, and
 * the block is free again; otherwise an {@link InlineSendRest} carries
 * it on like a detached send. A receive posts its native receive into a
 * staging block, the caller waits on this object (a {@link BooleanSupplier}
 * that tests it), and {@link #completeReceive} unpacks. A header that says
 * the payload travels apart (a larger message than the receive, which must end
 * in truncation) is handed to a {@link RecvOp} as if a probe had taken it.
 *
 * <p>One per engine. Only the gate's holder uses it, one call at a time, so the
 * posted block and the last receive's result are plain fields. It keeps one
 * block for its sends and one for its receives from call to call, each large
 * enough for any message it takes: a send's is free again when the native
 * library completed it at once, a receive's when it completed, so the pool
 * is only asked again after a send went on in flight with its block.
 */
public final class InlineTransfer implements BooleanSupplier {

    private final OpContext context;
    private final MessageRecords records;
    private final StagingPool pool;
    /**
     * Whether the JNI path is on ({@link FastInline#ENABLED}): read at MPI_Init, so that loading its library (or
     * building it, the first time) is part of the start, not of the program's first send.
     */
    private final boolean jni = FastInline.ENABLED;
    /** The kept blocks ({@link #sendBlock}, {@link #receiveBlock}), or null before the first use. */
    private OpBlock keptSend;
    private OpBlock keptReceive;
    /** The posted receive: its block (null when none is posted), communicator, size and where it goes. */
    private OpBlock receiving;
    private CommStructure receivingComm;
    private int receivingCapacity;
    private UserBuffer receivingBuf;
    private int receivingCount;
    private TypeLayout receivingType;
    /** With the JNI path ({@link FastInline}): the array the posted receive lands in, and its header when done. */
    private Object receivingArray;
    private final int[] fastHeader = new int[FastInline.OUT_INTS];
    /** Whether the posted receive completed in the call that posted it ({@link #postReceive}, plain). */
    private boolean receivedAtPost;
    /** The last receive done inline: its source (peer rank), tag and payload bytes. */
    private int resultSource;
    private int resultTag;
    private int resultBytes;

    public InlineTransfer(OpContext context, MessageRecords records) {
        this.context = context;
        this.records = records;
        this.pool = context.pool();
    }

    /**
     * Whether the blocking standard or ready-mode send (the same message) {@code t} to a peer rank (not
     * PROC_NULL) goes inline: the job logs nothing, and the payload travels with its header to the destination's
     * only copy.
     */
    public boolean sends(Transfer t) {
        CommStructure comm = t.comm();
        int dest = t.peer();
        return records.sendLog() == null && EagerLimit.fits(t.payloadBytes()) && comm.sendPrimary(dest) != null
                && comm.sendExtra(dest) == null;
    }

    /**
     * Sends {@code t}. Returns null when the native library completed the send at once, else the send still in
     * flight (the caller detaches it, or waits for it).
     */
    public NativeOp send(Transfer t) {
        CommStructure comm = t.comm();
        int dest = t.peer();
        long payloadBytes = t.payloadBytes();
        int bytes = (int) (MessageHeader.BYTES + payloadBytes);
        Endpoint to = comm.sendPrimary(dest);
        long sendId = comm.sendIds().next(dest);
        OpBlock block = sendBlock();
        SendDigest digest = SendDigest.active();
        Object array = jni && digest == null
                ? FastInline.array(t.buf(), t.startByte(), t.count(), t.type()) : null;
        boolean done;
        if (array != null) {
            // eager (sends() checked it) and standard: only the channel adds a flag
            int flags = t.channel() == Channel.INTERNAL ? MessageHeader.FLAG_INTERNAL : 0;
            // an error leaves the kept block free: the send was not posted, or completed with the error
            done = FastInline.send(array, t.startByte(), (int) payloadBytes, block, comm.commId(), comm.rank(),
                    sendId, flags, to.rank(), t.tag(), to.comm(t.channel()));
            records.sent(bytes);
        } else {
            MemorySegment message = block.staging();
            SendHeader.write(message, comm, sendId, t.channel(), SendMode.STANDARD, payloadBytes, 0);
            Packer.pack(t.buf(), t.startByte(), t.count(), t.type(), message, MessageHeader.BYTES);
            if (digest != null) {
                // no twin in such a job: only an injected corruption (--corrupt) acts here
                digest.sent(t.comm().commId(), dest, t.tag(), message, MessageHeader.BYTES, payloadBytes);
            }
            Empi.isend(message, bytes, Empi.BYTE, to.rank(), t.tag(), to.comm(t.channel()), block.request());
            records.sent(bytes);
            // an error completes the send too: the native library is done with the kept block
            done = tested(block);
        }
        if (done) {
            return null;
        }
        keptSend = null;   // in flight: the block goes with the rest of the send
        return new InlineSendRest(context, comm, block);
    }

    /**
     * Whether the blocking receive {@code t} (from a peer rank or any source, not PROC_NULL) goes inline: the job
     * logs nothing, the whole message fits what the native library delivers eagerly, and no probe has taken a
     * message out of the native library that this receive might have to take instead.
     */
    public boolean receives(Transfer t) {
        return records.sendLog() == null && EagerLimit.fits(t.payloadBytes()) && t.comm().arrived().isEmpty();
    }

    /**
     * Posts the native receive of {@code t}: from its peer (a rank, or any source) with its tag. {@code plain}: no
     * send from the receive's buffer follows in this call, so through the JNI path the post also tests, and a
     * message already there is received in the same native call.
     */
    public void postReceive(Transfer t, boolean plain) {
        CommStructure comm = t.comm();
        int source = t.peer();
        int anySource = t.anySource();
        int count = t.count();
        TypeLayout type = t.type();
        UserBuffer buf = t.buf();
        int capacity = (int) (MessageHeader.BYTES + count * type.size());
        Endpoint from = source == anySource ? comm.receiveAny() : comm.receiveFrom(source);
        int nativeSource = source == anySource ? Empi.ANY_SOURCE : from.rank();
        OpBlock block = receiveBlock();
        Object array = jni ? FastInline.array(buf, UserBuffer.START, count, type) : null;
        boolean done = false;
        if (array != null && plain) {
            // an error leaves nothing posted: the receive was not posted, or completed with the error
            done = FastInline.postAndTestReceive(block, capacity, nativeSource, t.tag(), from.comm(t.channel()), array,
                    UserBuffer.START, type, count, fastHeader);
        } else if (array != null) {
            FastInline.postReceive(block, capacity, nativeSource, t.tag(), from.comm(t.channel()));
        } else {
            Empi.irecv(block.staging(), capacity, Empi.BYTE, nativeSource, t.tag(), from.comm(t.channel()),
                    block.request());
        }
        receivingArray = array;
        receivedAtPost = done;
        // kept only once posted: a receive that failed to post has no block to keep or give back
        receiving = block;
        receivingComm = comm;
        receivingCapacity = capacity;
        receivingBuf = buf;
        receivingCount = count;
        receivingType = type;
    }

    /**
     * Tests the posted receive once: whether it is done. A native error (the message was longer than the
     * receive) completes it too: its block goes back and the error is thrown.
     */
    @Override
    public boolean getAsBoolean() {
        if (receivedAtPost) {
            return true;   // its native request is already gone
        }
        OpBlock block = receiving;
        try {
            return receivingArray != null
                    ? FastInline.testReceive(block, receivingCapacity, receivingArray, UserBuffer.START,
                            receivingType, receivingCount, fastHeader)
                    : tested(block);
        } catch (RuntimeException e) {
            receivingArray = null;
            receiving = null;   // completed with the error: the kept block is free again
            throw e;
        }
    }

    /**
     * The posted receive is done: unpacks its payload and returns null, with the result in {@link #source()},
     * {@link #tag()} and {@link #bytes()}; or, when its header says the payload travels apart, returns the
     * receive that takes it from here.
     */
    public RecvOp completeReceive() {
        OpBlock block = receiving;
        CommStructure comm = receivingComm;
        UserBuffer buf = receivingBuf;
        TypeLayout type = receivingType;
        int count = receivingCount;
        boolean copied = receivingArray != null;
        receiving = null;
        receivedAtPost = false;
        receivingComm = null;
        receivingBuf = null;
        receivingType = null;
        receivingArray = null;
        MemorySegment message = block.staging();
        int tag = copied ? fastHeader[FastInline.OUT_TAG] : Empi.statusTag(block.status(), 0);
        int source = copied ? fastHeader[FastInline.OUT_SOURCE] : MessageHeader.logicalSource(message);
        int flags = copied ? fastHeader[FastInline.OUT_FLAGS] : MessageHeader.flags(message);
        if ((flags & MessageHeader.FLAG_RENDEZVOUS) != 0) {
            byte[] header = message.asSlice(0, MessageHeader.BYTES).toArray(ValueLayout.JAVA_BYTE);
            return RecvOp.arrived(context, records,
                    new Transfer().on(comm, Channel.USER).data(buf, UserBuffer.START, count, type),
                    new ArrivedMessages.Arrival(source, tag, header));
        }
        int payload = copied ? fastHeader[FastInline.OUT_PAYLOAD] : MessageHeader.payloadBytes(message);
        long sendId = copied ? FastInline.sendId(fastHeader) : MessageHeader.sendId(message);
        if (payload < 0 || payload > receivingCapacity - MessageHeader.BYTES) {
            throw new MpiError(MpiError.ERR_INTERN, "message with a corrupt FTHP header on communicator "
                    + comm.commId() + ": was it sent by a program outside FTHP-J?");
        }
        if (!copied) {   // copied: the payload went into the program's array with the test that completed it
            long items = type.size() == 0 ? 0 : payload / type.size();
            Packer.unpack(message, MessageHeader.BYTES, buf, UserBuffer.START, (int) Math.min(items, count), type);
        }
        records.consumed(comm.commId(), source, sendId, payload);
        if ((flags & MessageHeader.FLAG_SYNCHRONOUS) != 0) {
            records.matchedSynchronous(comm.commId(), source, sendId);
        }
        resultSource = source;
        resultTag = tag;
        resultBytes = payload;
        return null;
    }

    /** The last receive done inline: its source (peer rank), tag and payload bytes. */
    public int source() { return resultSource; }
    public int tag() { return resultTag; }
    public int bytes() { return resultBytes; }

    /** The kept send block, free: the last send's, unless that one went on in flight. */
    private OpBlock sendBlock() {
        OpBlock block = keptSend;
        if (block == null) {
            block = pool.acquireBlock(MessageHeader.BYTES + Rendezvous.THRESHOLD_BYTES);
            keptSend = block;
        }
        return block;
    }

    /**
     * The kept receive block, free: the last receive's, unless that one never completed (its call was left by an
     * exception while it was posted): then the native library may still write it, and it is never used again.
     */
    private OpBlock receiveBlock() {
        OpBlock block = keptReceive;
        if (block == null || receiving != null) {
            block = pool.acquireBlock(MessageHeader.BYTES + Rendezvous.THRESHOLD_BYTES);
            keptReceive = block;
        }
        return block;
    }

    private static boolean tested(OpBlock block) {
        Empi.test(block.request(), block.flag(), block.status());
        return block.flag().get(ValueLayout.JAVA_INT, 0) != 0;
    }
}

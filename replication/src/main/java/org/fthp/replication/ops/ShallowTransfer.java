package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

import org.fthp.empi.Empi;
import org.fthp.empi.fast.ArrayCalls;
import org.fthp.empi.fast.JniCalls;
import org.fthp.msglog.MessageHeader;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.sdc.SendDigest;
import org.fthp.replication.staging.OpBlock;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.ArrivedMessages;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;

/**
 * The shallow path of a job without replicas: a program's small blocking send or receive of a primitive array
 * ({@code byte[]}, {@code double[]}...) as one JNI call ({@link JniCalls}) from the engine's point-to-point entry,
 * with no call description, buffer wrap or operation object on the way. A program runs its first seconds
 * interpreted and C1-compiled, where every Java call on the path costs tens of nanoseconds and the FFM downcalls
 * microseconds; this path is a few calls deep, as Open MPI's own binding is, and leaves C2 little to compile.
 *
 * <p>A send writes the header, copies the payload from the array, posts and tests (up to {@link #SEND_TESTS}
 * times) in one native call; one the native library did not complete by then goes on as an
 * {@link InlineSendRest}. A receive posts and polls in one
 * call, and a wait polls again ({@link #getAsBoolean}, a bounded number of native tests per call, so the caller's
 * duty cycle runs between them: a failure or rollback ends the wait); the completing poll copies the payload into
 * the array. The message is {@link InlineTransfer}'s (header, payload, tag, channel): either side may take the
 * general path while the other takes this one. Anything else (another buffer, a derived datatype with holes, a
 * payload past the eager limit, a message a probe took out, an injected corruption to apply) is {@link #NOT_TAKEN}.
 * After {@link #FFM_AFTER} calls the same native functions are reached by FFM downcalls ({@link ArrayCalls}), which
 * cost C2-compiled code less than JNI calls do.
 *
 * <p>One per engine, built only where nothing needs the per-call bookkeeping it skips (no replicas, no send log);
 * used by the gate's holder, one call at a time, so the kept blocks and the posted receive are plain fields.
 */
public final class ShallowTransfer implements BooleanSupplier {

    /** The call is not this path's: the general path takes it. */
    public static final int NOT_TAKEN = 0;
    /** Sent, or received: the result is in the description {@link #complete} fills. */
    public static final int DONE = 1;
    /** A send in flight ({@link #inFlight}), or a receive posted: the caller waits on this object. */
    public static final int PENDING = 2;

    /**
     * Native tests per poll, between two turns of the wait's duty. One: bursts of tests per call make a two-rank
     * ping-pong's round trips of 512 B and 1 KiB several times longer, and none shorter at 8 B (bench/README);
     * a larger value is there to measure with.
     */
    static final int POLLS = Integer.getInteger("fthp.shallow.polls", 1);
    /**
     * Native tests of a send in the call that posts it, until it completes ({@code -Dfthp.shallow.sendTests}). Open
     * MPI's shared memory completes a send past its inline size (256 B) only once the receiver has handed the
     * fragment back, some 20 to 60 tests later in a ping-pong; a send still in flight after its call becomes an
     * operation the duty cycle completes (allocated, detached, its block taken from the pool and given back), code
     * the JIT must then compile too, recompiling the shallow entries that had it as an uncommon trap. More tests
     * keep most such sends inside their call; bounded, a send to a rank busy elsewhere costs that many tests, then
     * goes on in flight (a few microseconds at most). 64 covers the 99th percentile of a ping-pong's 1 KiB sends
     * (bench/README, "From the first second": what it buys cold and warm).
     */
    static final int SEND_TESTS = Integer.getInteger("fthp.shallow.sendTests", 64);
    private static final int WILDCARD = Integer.MIN_VALUE;
    private static final long BLOCK_BYTES = MessageHeader.BYTES + Rendezvous.THRESHOLD_BYTES;

    private final OpContext context;
    private final MessageRecords records;
    private final StagingPool pool;
    /** The kept send block and its addresses; null after a send went on in flight with it. */
    private OpBlock sendBlock;
    private long sendStaging;
    private long sendRequest;
    private long sendStatus;
    private NativeOp inFlight;
    /** The kept receive block and its addresses; replaced when a receive was left posted (its call threw). */
    private OpBlock receiveBlock;
    private long receiveStaging;
    private long receiveRequest;
    private long receiveStatus;
    /** The posted receive, while {@link #posted}. */
    private boolean posted;
    private CommStructure receivingComm;
    private Object receivingArray;
    private boolean receivingBytes;
    private int receivingCount;
    private TypeLayout receivingType;
    private int receivingItemBytes;
    private int receivingCapacity;
    /** The posted receive's source and tag as asked, or {@link #WILDCARD} when the envelope must be read back. */
    private int receivingSource;
    private int receivingTag;
    /** The done receive's payload bytes, or {@link JniCalls#POLL_APART}. */
    private int received;

    /**
     * Calls after which the native calls go through FFM ({@link ArrayCalls}) instead of JNI (0: never;
     * {@code -Dfthp.shallow.ffmAfter} or FTHP_SHALLOW_FFM_AFTER). A JNI call costs the interpreter and C1 what it
     * costs C2, so it serves a program's first seconds; once C2 has compiled the caller, a critical FFM downcall
     * with the program's array as a heap segment is a plain call (no thread-state transition, no array-region
     * function), cheaper than the JNI call. C2 compiles after some 10 000 calls; 100 000 switches well after
     * that and never inside a short program's first seconds. The switch costs one recompilation of the caller.
     */
    static final long FFM_AFTER = Long.getLong("fthp.shallow.ffmAfter",
            Long.parseLong(System.getenv().getOrDefault("FTHP_SHALLOW_FFM_AFTER", "100000")));
    /** Shallow calls so far (up to the switch). */
    private long calls;
    /** The last array sent from, and its heap segment: a loop over the same arrays makes none per call. */
    private Object sendArray;
    private MemorySegment sendSegment;
    /** The last array received into, and its heap segment. */
    private Object receiveArray;
    private MemorySegment receiveSegment;
    /** The posted receive's array as a heap segment when it was posted through FFM; null through JNI. */
    private MemorySegment receivingSegment;

    private static MemorySegment segmentOf(Object array) {
        MemorySegment segment = UserBuffer.arraySegment(array);
        if (segment == null) {
            throw new IllegalArgumentException("not an array the shallow path takes");
        }
        return segment;
    }

    private ShallowTransfer(OpContext context, MessageRecords records) {
        this.context = context;
        this.records = records;
        this.pool = context.pool();
    }

    /**
     * The shallow path of an engine, or null where it must not be taken: a job with replicas or a send log (their
     * copies, logs and repairs need every message's operation), or without the JNI library ({@link FastInline}).
     */
    public static ShallowTransfer of(OpContext context, MessageRecords records, boolean replicated) {
        return replicated || records.sendLog() != null || !FastInline.ENABLED ? null
                : new ShallowTransfer(context, records);
    }

    /**
     * Sends the first {@code payload} bytes of {@code array} (checked: a primitive array other than {@code boolean[]}
     * holding the items densely; -1: any other buffer) to {@code dest} with {@code tag}, standard mode:
     * {@link #DONE}, {@link #PENDING} (then {@link #inFlight}), or {@link #NOT_TAKEN}.
     */
    public int send(CommStructure comm, Object array, long payload, int dest, int tag) {
        if (dest < 0 || payload < 0 || payload >= Rendezvous.THRESHOLD_BYTES
                || SendDigest.active() != null) {   // PROC_NULL; not one array's bytes; no eager; a corruption to inject
            return NOT_TAKEN;
        }
        boolean bytes = array instanceof byte[];
        Endpoint to = comm.sendPrimary(dest);
        if (to == null) {
            return NOT_TAKEN;
        }
        if (sendBlock == null) {
            keepSendBlock(pool.acquireBlock(BLOCK_BYTES));
        }
        long sendId = comm.sendIds().next(dest);
        // an error leaves the kept block free: the send was not posted, or completed with the error
        int r;
        if (FFM_AFTER > 0 && ++calls > FFM_AFTER && ArrayCalls.AVAILABLE) {   // FFM once C2 has this (FFM_AFTER)
            if (array != sendArray) {
                sendArray = array;
                sendSegment = segmentOf(array);
            }
            r = ArrayCalls.send(sendSegment, (int) payload, sendStaging, comm.commId(), comm.rank(),
                    sendId, 0, to.rank(), tag, to.comm(), sendRequest, sendStatus, SEND_TESTS);
        } else {
            r = JniCalls.sendHeaded(array, bytes, 0, (int) payload, sendStaging, comm.commId(), comm.rank(), sendId, 0,
                    to.rank(), tag, to.comm(), sendRequest, sendStatus, SEND_TESTS);
        }
        records.sent(MessageHeader.BYTES + payload);
        if (r == 1) {
            return DONE;
        }
        if (r < 0) {
            throw FastInline.failure("MPI_Isend/MPI_Test", -r);
        }
        inFlight = new InlineSendRest(context, comm, sendBlock);
        sendBlock = null;
        return PENDING;
    }

    /** The send {@link #send} left in flight; taken once. */
    public NativeOp inFlight() {
        NativeOp op = inFlight;
        inFlight = null;
        return op;
    }

    /**
     * Posts the receive of up to {@code count} items of {@code type}, {@code payload} bytes, into the start of
     * {@code array} (checked as for {@link #send}) from {@code source} (a rank, or {@code anySource}) with
     * {@code tag} (or {@code anyTag}), and polls it: {@link #DONE} or {@link #PENDING} (then wait on this object),
     * after which {@link #complete} gives the result; or {@link #NOT_TAKEN}.
     */
    public int receive(CommStructure comm, Object array, int count, TypeLayout type, long payload, int source, int tag,
                       int anySource, int anyTag) {
        if (source < 0 && source != anySource || payload < 0 || payload >= Rendezvous.THRESHOLD_BYTES
                || !comm.arrived().isEmpty()) {   // a probed message may be this receive's
            return NOT_TAKEN;
        }
        boolean bytes = array instanceof byte[];
        Endpoint from = source == anySource ? comm.receiveAny() : comm.receiveFrom(source);
        if (receiveBlock == null || posted) {
            // a receive left posted (its call threw) may still be written by the native library: never reused
            keepReceiveBlock(pool.acquireBlock(BLOCK_BYTES));
        }
        int capacity = (int) (MessageHeader.BYTES + payload);
        int itemBytes = (int) type.size();
        receivingComm = comm;
        receivingArray = array;
        receivingBytes = bytes;
        receivingCount = count;
        receivingType = type;
        receivingItemBytes = itemBytes;
        receivingCapacity = capacity;
        // the envelope is read back only when the program left it open
        receivingSource = source == anySource || tag == anyTag ? WILDCARD : source;
        receivingTag = tag;
        posted = true;
        int r;
        if (FFM_AFTER > 0 && ++calls > FFM_AFTER && ArrayCalls.AVAILABLE) {
            if (array != receiveArray) {
                receiveArray = array;
                receiveSegment = segmentOf(array);
            }
            receivingSegment = receiveSegment;
            r = ArrayCalls.irecvPoll(source == anySource ? Empi.ANY_SOURCE : from.rank(), tag,
                    from.comm(), receiveRequest, receiveStatus, receiveStaging, capacity, receivingSegment, itemBytes,
                    count, POLLS);
        } else {
            receivingSegment = null;
            r = JniCalls.irecvPollArray(source == anySource ? Empi.ANY_SOURCE : from.rank(), tag, from.comm(),
                    receiveRequest, receiveStatus, receiveStaging, capacity, array, bytes, itemBytes, count, POLLS);
        }
        return settled(r, "MPI_Irecv/MPI_Test") ? DONE : PENDING;
    }

    /** Polls the posted receive: whether it is done. A native error completes it too, and is thrown. */
    @Override
    public boolean getAsBoolean() {
        if (!posted) {
            return true;
        }
        int r = receivingSegment != null
                ? ArrayCalls.poll(receiveRequest, receiveStatus, receiveStaging, receivingCapacity,
                        receivingSegment, receivingItemBytes, receivingCount, POLLS)
                : JniCalls.pollArray(receiveRequest, receiveStatus, receiveStaging, receivingCapacity, receivingArray,
                        receivingBytes, receivingItemBytes, receivingCount, POLLS);
        return settled(r, "MPI_Test");
    }

    /**
     * Takes a native poll's result {@code r}: false while the receive is pending; else it is no longer posted (not
     * posted at all, or complete: the kept block is free again) and a native error of {@code calls} is thrown.
     */
    private boolean settled(int r, String calls) {
        if (r == JniCalls.POLL_PENDING) {
            return false;
        }
        posted = false;
        received = r;
        if (r <= -JniCalls.POLL_ERROR_BASE) {
            throw FastInline.failure(calls, -r - JniCalls.POLL_ERROR_BASE);
        }
        return true;
    }

    /**
     * The done receive's result into {@code result} (source, tag, payload bytes), its payload already in the
     * array; or, when its header says the payload travels apart (a message larger than the receive, which must end
     * in truncation), the receive that takes it from here.
     */
    public RecvOp complete(Transfer result) {
        Object array = receivingArray;
        receivingArray = null;
        int payload = received;
        int source = receivingSource;
        int tag = receivingTag;
        if (source == WILDCARD || payload == JniCalls.POLL_APART) {
            long envelope = JniCalls.envelope(receiveStaging, receiveStatus);
            source = (int) (envelope >> 32);
            tag = (int) envelope;
        }
        if (payload == JniCalls.POLL_APART) {
            MemorySegment header = receiveBlock.staging().asSlice(0, MessageHeader.BYTES);
            if ((MessageHeader.flags(header) & MessageHeader.FLAG_RENDEZVOUS) == 0) {
                throw new MpiError(MpiError.ERR_INTERN, "message with a corrupt FTHP header on communicator "
                        + receivingComm.commId() + ": was it sent by a program outside FTHP-J?");
            }
            return RecvOp.arrived(context, records, new Transfer().on(receivingComm, Channel.USER)
                            .data(UserBuffer.of(array), UserBuffer.START, receivingCount, receivingType),
                    new ArrivedMessages.Arrival(source, tag, header.toArray(ValueLayout.JAVA_BYTE)));
        }
        // nothing to record: without a receive log (no replicas) a consumed message leaves no trace
        result.received(source, tag, payload, false);
        return null;
    }

    private void keepSendBlock(OpBlock block) {
        sendBlock = block;
        sendStaging = block.stagingAddress();
        sendRequest = block.requestAddress();
        sendStatus = block.statusAddress();
    }

    private void keepReceiveBlock(OpBlock block) {
        receiveBlock = block;
        receiveStaging = block.stagingAddress();
        receiveRequest = block.requestAddress();
        receiveStatus = block.statusAddress();
    }
}

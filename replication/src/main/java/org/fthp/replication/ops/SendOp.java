package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;

import org.fthp.empi.Empi;
import org.fthp.msglog.MessageHeader;
import org.fthp.msglog.SendLog;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.sdc.SendDigest;
import org.fthp.replication.staging.SharedMessage;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;

/**
 * One native message of a point-to-point send: header and packed data in one
 * staging segment, sent with the user's tag to one copy of the destination.
 * {@link #post} sends a message to every copy that must get it (docs/DESIGN.md §6)
 * and logs it.
 */
public final class SendOp extends NativeOp {

    /** Abandoned by a rollback, it changes nothing the program sees: a send reads its payload. */
    @Override
    boolean onlyReadsProgramMemory() {
        return true;
    }

    /**
     * The largest payload a message can carry: with its header it goes as one
     * native {@code int} count of bytes. Callers check it (the facade, with
     * the program's arguments); nothing here checks again.
     */
    public static final long MAX_PAYLOAD_BYTES = Integer.MAX_VALUE - MessageHeader.BYTES;

    private final CommStructure comm;
    /** The packed payload's length; its bytes follow the header (in staging or shared), unless sent in place. */
    private final long payloadBytes;
    /** A large payload sent from the program's own direct buffer, or null (the payload is in staging). */
    private final MemorySegment inPlacePayload;
    private final SendMode mode;
    private final int dest;
    private final long sendId;
    private final MessageRecords records;
    /** Whether the payload travels apart from its header, received only once the receiver takes it. */
    private final boolean rendezvous;
    /** The large logged message this send reads (one reference of its own), or null: it is in staging. */
    private final SharedMessage shared;

    /**
     * Sends to {@code dest} (a peer rank of {@code comm}) on {@code channel}:
     * one native message per live copy of the destination this copy feeds.
     * A replica whose destination has no replica sends nothing: the
     * computational copy does, and the replica only logs (it may be promoted).
     */
    public static NativeOp[] post(OpContext context, MessageRecords records, Transfer t) {
        int dest = t.peer();
        if (dest == t.procNull()) {
            return new NativeOp[] {CompletedOp.create(context)};
        }
        CommStructure comm = t.comm();
        SendMode mode = t.mode();
        long sendId = comm.sendIds().next(dest);
        Endpoint primary = comm.sendPrimary(dest);
        Endpoint extra = comm.sendExtra(dest);
        SendLog log = records.sendLog();
        long payloadBytes = t.payloadBytes();
        if (log != null && !EagerLimit.fits(payloadBytes)) {
            return postShared(context, records, t, sendId, primary, extra, log);
        }
        if (primary == null) {
            if (log != null) {
                SendOp staged = new SendOp(context, records, t, null, sendId, true);
                log.record(comm.commId(), dest, sendId, t.tag(), staged.header(), staged.payload());
                staged.completeLocally();
                if (mode == SendMode.SYNCHRONOUS && records.acknowledgements() != null) {
                    // a replica whose destination has no replica sends nothing, yet its send completes only
                    // once the destination matched it (its copy tells this one): else it would run ahead
                    return new NativeOp[] {new SyncMatch(context, records, comm, dest, sendId)};
                }
            }
            return new NativeOp[] {CompletedOp.create(context)};
        }
        if (log == null && extra == null && PullSend.offers(payloadBytes, mode)) {
            // no replicas: a large payload may wait in shared memory for a receiver on this node to copy it
            NativeOp offered = PullSend.offer(context, records, t, primary, sendId);
            if (offered != null) {
                records.sent(MessageHeader.BYTES + payloadBytes);
                return new NativeOp[] {offered};
            }
        }
        if (comm.alreadyHas(dest, false, sendId)) {
            primary = null;   // that copy got this message from our twin, before a repair
        }
        if (extra != null && comm.alreadyHas(dest, true, sendId)) {
            extra = null;
        }
        SendOp first = new SendOp(context, records, t, primary, sendId, true);
        long bytes = MessageHeader.BYTES + first.payloadBytes;
        if (log != null) {
            log.record(comm.commId(), dest, sendId, t.tag(), first.header(), first.payload());
        }
        if (primary == null) {
            first.completeLocally();
        } else {
            records.sent(bytes);
        }
        if (extra == null) {
            return new NativeOp[] {first};
        }
        records.sent(bytes);
        return new NativeOp[] {first, new SendOp(context, records, t, extra, first)};
    }

    /**
     * A large logged message: packed once into a {@link SharedMessage} that is
     * the log entry and what every send of it reads (no copy for the log, for
     * the destination's replica, nor for a resend). The log holds the
     * creator's reference; each send holds one until it completes. From
     * {@link PullSend#THRESHOLD_BYTES} the message lives in pull memory and
     * each copy of the destination gets a {@link PullSend}: a receiver on this
     * node copies the payload from the entry itself. Otherwise (pulls off, no
     * room) each gets a native send; a payload those take from the program's
     * own memory (a direct buffer) is copied into the entry after they
     * started, while the receivers take it. The log's own header never says
     * "pull": a resend after a repair goes natively. A replica whose
     * destination has no replica only logs the message (it may be promoted); a
     * synchronous one then completes once the destination matched it (its
     * copy tells this one), else it would run ahead.
     */
    private static NativeOp[] postShared(OpContext context, MessageRecords records, Transfer t, long sendId,
                                         Endpoint primary, Endpoint extra, SendLog log) {
        CommStructure comm = t.comm();
        int dest = t.peer();
        SendMode mode = t.mode();
        long payloadBytes = t.payloadBytes();
        boolean logOnly = primary == null;
        if (!logOnly) {
            if (comm.alreadyHas(dest, false, sendId)) {
                primary = null;   // that copy got this message from our twin, before a repair
            }
            if (extra != null && comm.alreadyHas(dest, true, sendId)) {
                extra = null;
            }
        }
        int n = (primary == null ? 0 : 1) + (extra == null ? 0 : 1);
        SharedMessage message = n > 0 && PullSend.offers(payloadBytes, mode)
                ? PullSend.allocateLogged(context, MessageHeader.BYTES + payloadBytes) : null;
        boolean pulled = message != null;
        if (!pulled) {
            message = SharedMessage.allocate(context.messages(), MessageHeader.BYTES + payloadBytes);
        }
        // a pulled payload is read by its receivers as soon as they have the descriptor: packed (and hashed, block
        // by block while each is in cache) before
        boolean inPlace = !pulled && sendsInPlace(t);
        SendDigest digest = SendDigest.active();
        if (!inPlace) {
            writeMessage(message.message(), t, sendId, true, true);
        } else if (digest != null) {
            // the sends read the program's own memory: an injected flip goes there, so the log copies it too
            digest.beforeSend(t.buf().directSegment(), t.startByte(), payloadBytes);
        }
        NativeOp[] ops = n == 0 ? null : new NativeOp[n];
        int i = 0;
        for (Endpoint to : new Endpoint[] {primary, extra}) {
            if (to == null) {
                continue;
            }
            records.sent(MessageHeader.BYTES + payloadBytes);
            if (pulled) {
                ops[i++] = PullSend.offerLogged(context, records, t, to, message.retain(), sendId);
            } else if (inPlace) {
                ops[i++] = new SendOp(context, records, t, to, sendId, false);
            } else {
                ops[i++] = new SendOp(context, records, t, to, message.retain(), sendId);
            }
        }
        if (inPlace) {
            // the log's copy, made while the sends read the program's memory; the hash takes it as it is packed
            SendHeader.write(message.message(), comm, sendId, t.channel(), mode, payloadBytes, 0);
            if (digest != null) {
                digest.packFolded(comm.commId(), dest, t.tag(), t.buf(), t.startByte(), t.count(), t.type(),
                        message.message(), MessageHeader.BYTES);
            } else {
                Packer.pack(t.buf(), t.startByte(), t.count(), t.type(), message.message(), MessageHeader.BYTES);
            }
        }
        log.adopt(comm.commId(), dest, sendId, t.tag(), message.message(), message);
        if (ops != null) {
            return ops;
        }
        if (logOnly && mode == SendMode.SYNCHRONOUS && records.acknowledgements() != null) {
            return new NativeOp[] {new SyncMatch(context, records, comm, dest, sendId)};
        }
        return new NativeOp[] {CompletedOp.create(context)};
    }

    /**
     * Sends a logged message again, to a copy that lacks it after a repair:
     * the same bytes, tag and channel, its payload apart if it was large.
     */
    public static NativeOp resend(OpContext context, CommStructure comm, Endpoint to, SendLog.Entry entry) {
        return new Resend(context, comm, to, entry);
    }

    /**
     * A logged message on its way again. Acknowledgements may trim the entry
     * before this completes: an adopted (large) message is read from its
     * shared memory, held by a reference of this send's own; a copied (small)
     * one is copied into staging, since the log reuses its memory.
     */
    private static final class Resend extends NativeOp {

        @Override
        boolean onlyReadsProgramMemory() {
            return true;   // a resend reads the log's copy
        }
        private final CommStructure comm;
        private final SharedMessage shared;

        Resend(OpContext context, CommStructure comm, Endpoint to, SendLog.Entry entry) {
            super(context, entry.retained() instanceof SharedMessage ? 0 : entry.message().byteSize());
            this.comm = comm;
            MemorySegment message;
            if (entry.retained() instanceof SharedMessage m) {
                this.shared = m.retain();
                message = entry.message();
            } else {
                this.shared = null;
                message = staging().asSlice(0, entry.message().byteSize());
                MemorySegment.copy(entry.message(), 0, message, 0, message.byteSize());
            }
            int flags = MessageHeader.flags(message);
            Channel channel = (flags & MessageHeader.FLAG_INTERNAL) != 0 ? Channel.INTERNAL : Channel.USER;
            long nativeComm = to.comm(channel);
            if ((flags & MessageHeader.FLAG_RENDEZVOUS) != 0) {
                Empi.isend(message, MessageHeader.BYTES, Empi.BYTE, to.rank(), entry.tag(), nativeComm, requestSlot());
                MemorySegment payload = message.asSlice(MessageHeader.BYTES);
                Empi.isend(payload, (int) payload.byteSize(), Empi.BYTE, to.rank(),
                        MessageHeader.payloadTag(entry.sendId()), to.internal(), secondRequestSlot());
            } else {
                Empi.isend(message, (int) message.byteSize(), Empi.BYTE, to.rank(), entry.tag(), nativeComm,
                        requestSlot());
            }
        }

        @Override
        protected NativeOp reissue() {
            return null;   // the next repair's resends cover it
        }

        @Override
        protected CommStructure structure() {
            return comm;
        }

        @Override
        protected void releaseBuffers() {
            if (shared != null) {
                shared.release();
            }
        }
    }

    /**
     * Stages one message and, unless {@code to} is null (log only), starts sending it; {@code digest}: the first
     * message of the send, which the twin hash takes (SendDigest).
     */
    private SendOp(OpContext context, MessageRecords records, Transfer t, Endpoint to, long sendId, boolean digest) {
        super(context, stagingBytes(t));
        this.comm = t.comm();
        this.records = records;
        this.mode = t.mode();
        this.dest = t.peer();
        this.sendId = sendId;
        this.payloadBytes = t.payloadBytes();
        this.rendezvous = !EagerLimit.fits(payloadBytes);
        this.shared = null;
        boolean inPlace = sendsInPlace(t);
        writeMessage(staging(), t, sendId, !inPlace, digest);
        this.inPlacePayload = inPlace ? t.buf().directSegment().asSlice(t.startByte(), payloadBytes) : null;
        if (to != null) {
            start(to, t.channel(), t.tag(), staging());
        }
    }

    /**
     * The same message for the destination's other copy, {@code to}: a copy of what {@code first} staged (header
     * and packed payload, or the header alone when the payload goes in place), not a second pack of the program's
     * buffer. Both copies of the destination then get the very bytes this copy hashed and logged, a wrong value
     * included (--corrupt flips the first packing, as a fault before the send would the data every copy gets).
     */
    private SendOp(OpContext context, MessageRecords records, Transfer t, Endpoint to, SendOp first) {
        super(context, stagingBytes(t));
        this.comm = first.comm;
        this.records = records;
        this.mode = first.mode;
        this.dest = first.dest;
        this.sendId = first.sendId;
        this.payloadBytes = first.payloadBytes;
        this.rendezvous = first.rendezvous;
        this.shared = null;
        this.inPlacePayload = first.inPlacePayload;
        MemorySegment.copy(first.staging(), 0, staging(), 0, stagingBytes(t));
        start(to, t.channel(), t.tag(), staging());
    }

    /** Sends a message packed into {@code shared}, whose reference it holds until it completes. */
    private SendOp(OpContext context, MessageRecords records, Transfer t, Endpoint to, SharedMessage shared,
                   long sendId) {
        super(context);
        this.comm = t.comm();
        this.records = records;
        this.mode = t.mode();
        this.dest = t.peer();
        this.sendId = sendId;
        this.payloadBytes = t.payloadBytes();
        this.rendezvous = !EagerLimit.fits(payloadBytes);
        this.shared = shared;
        this.inPlacePayload = null;
        start(to, t.channel(), t.tag(), shared.message());
    }

    /**
     * The header and, unless {@code pack} is false (sent in place), the packed payload after it; with
     * {@code digest}, the payload folded into this copy's twin hash as it is packed (SendDigest).
     */
    private static void writeMessage(MemorySegment into, Transfer t, long sendId, boolean pack, boolean digest) {
        SendHeader.write(into, t.comm(), sendId, t.channel(), t.mode(), t.payloadBytes(), 0);
        SendDigest d = digest ? SendDigest.active() : null;
        if (pack) {
            if (d != null) {
                d.packSent(t.comm().commId(), t.peer(), t.tag(), t.buf(), t.startByte(), t.count(), t.type(), into,
                        MessageHeader.BYTES);
            } else {
                Packer.pack(t.buf(), t.startByte(), t.count(), t.type(), into, MessageHeader.BYTES);
            }
        } else if (d != null) {
            d.sent(t.comm().commId(), t.peer(), t.tag(), t.buf().directSegment(), t.startByte(), t.payloadBytes());
        }
    }

    /** Starts the native send(s) of the message whose header begins {@code message}. */
    private void start(Endpoint to, Channel channel, int tag, MemorySegment message) {
        long nativeComm = to.comm(channel);
        // a large payload goes separately, so the receiver can take it straight into its memory
        int bytes = rendezvous ? MessageHeader.BYTES : (int) (MessageHeader.BYTES + payloadBytes);
        mode.start(message, bytes, to.rank(), tag, nativeComm, requestSlot());
        if (rendezvous) {
            Empi.isend(payload(), (int) payloadBytes, Empi.BYTE, to.rank(), MessageHeader.payloadTag(sendId),
                    to.internal(), secondRequestSlot());
        }
    }

    /**
     * The header in staging, cut when asked: only the log and a large payload need these views, and an
     * unlogged small send should not allocate two segment objects per message for nothing.
     */
    private MemorySegment header() {
        return staging().asSlice(0, MessageHeader.BYTES);
    }

    /**
     * The packed payload: after the header in the shared message or in staging, or the program's own memory
     * for a large direct one.
     */
    private MemorySegment payload() {
        if (inPlacePayload != null) {
            return inPlacePayload;
        }
        return (shared != null ? shared.message() : staging()).asSlice(MessageHeader.BYTES, payloadBytes);
    }

    /**
     * Whether a blocking send may return as soon as every one of {@code ops}
     * is started, before the native library says it completed: each is done,
     * or is a standard or ready-mode message sent eagerly as one native
     * message from staging. Its bytes are then the engine's (the program may
     * reuse its buffer, as after a completed send), and the native library
     * completes it without waiting for the receiver, so nothing the program
     * does next can depend on its completion; the progress loop finishes it.
     * Not a synchronous send (it completes only when matched), not a large
     * message (its payload waits for the receiver), not a buffered one (its
     * completion frees room in the attached buffer).
     */
    public static boolean detachable(NativeOp[] ops) {
        for (NativeOp op : ops) {
            if (!op.isComplete() && !(op instanceof SendOp s && !s.rendezvous
                    && (s.mode == SendMode.STANDARD || s.mode == SendMode.READY))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A large payload in a direct buffer, covered contiguously, is sent from
     * the program's own memory: it cannot move, and MPI forbids changing it
     * until the send completes. Arrays (the GC moves them), small messages
     * and buffered-mode ones (the program may change its buffer as soon as
     * the call returns) are copied into staging.
     */
    private static boolean sendsInPlace(Transfer t) {
        UserBuffer buf = t.buf();
        return t.mode() != SendMode.BUFFERED && buf != null && buf.directSegment() != null && t.type().isDense()
                && t.payloadBytes() >= Rendezvous.THRESHOLD_BYTES;
    }

    private static long stagingBytes(Transfer t) {
        return sendsInPlace(t) ? MessageHeader.BYTES : MessageHeader.BYTES + t.payloadBytes();
    }

    /**
     * The message is in the log: the repair's resend delivers it to whichever copy still lacks it. A standard
     * send is then done; a synchronous one is done only once a live copy of the destination has matched it.
     */
    @Override
    protected NativeOp reissue() {
        return SyncMatch.afterRepair(context, records, comm, mode, dest, sendId);
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    /** The staging bytes go back with the operation's block; a shared message loses this send's reference. */
    @Override
    protected void releaseBuffers() {
        if (shared != null) {
            shared.release();
        }
    }
}

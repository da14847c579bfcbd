package org.fthp.replication.runtime;

import org.fthp.empi.Empi;
import org.fthp.replication.datatype.RecentBuffers;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.ops.CompletedOp;
import org.fthp.replication.ops.InlineTransfer;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.OrphanRequests;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.ops.SendMode;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.ops.ShallowTransfer;
import org.fthp.replication.ops.Transfer;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.structure.CommStructure;

/**
 * The engine's point-to-point entry: each send and receive the program makes arrives here once, as a
 * {@link Transfer} the facade filled with checked arguments, and is decided here: inline (a job without replicas,
 * a message the native library takes eagerly: ops.InlineTransfer) or posted as operations; a small blocking send
 * detached to the duty cycle or waited for; and, at the end of a call MPI allows to wait for a receiver, the wait
 * for room in the send log. Which payloads go eagerly is {@code ops.EagerLimit}'s rule.
 *
 * <p>A program's blocking send or receive of an array comes with its arguments as they are ({@link #send(CommStructure,
 * Object, int, TypeLayout, int, int)}, {@link #receive(CommStructure, Object, int, TypeLayout, int, int)}): its
 * first branch is the shallow path of a job without replicas ({@link ShallowTransfer}), a few calls deep for the
 * program's first seconds, which run interpreted; the rest is described and taken as any other call.
 *
 * <p>Only the thread holding the gate calls it; the two descriptions it lends ({@link #sendCall},
 * {@link #receiveCall}) are reused call after call.
 */
public final class PointToPoint {

    private final OpContext ops;
    private final MessageRecords records;
    private final InlineTransfer inline;
    /** Takes over the small sends a blocking call need not wait for. */
    private final OrphanRequests orphans;
    private final DutyCycle duty;
    private final BufferedSends buffered;
    /** The shallow path, or null where it must not be taken. */
    private final ShallowTransfer shallow;
    /** The program's buffers wrapped, for the calls that come with the program's object. */
    private final RecentBuffers buffers;
    /** How many of the program's calls the shallow path took (a test's evidence; a plain count, no cost to speak of). */
    private long shallowCalls;
    private final Transfer send = new Transfer();
    private final Transfer receive = new Transfer();
    /**
     * What a nonblocking send the native library completed inline returns: one operation, complete from the
     * start, shared by every such send (nothing in it changes once complete), so the send allocates none.
     */
    private final NativeOp[] sentInline;

    PointToPoint(OpContext ops, MessageRecords records, InlineTransfer inline, OrphanRequests orphans,
                 DutyCycle duty, BufferedSends buffered, ShallowTransfer shallow, RecentBuffers buffers) {
        this.ops = ops;
        this.records = records;
        this.inline = inline;
        this.orphans = orphans;
        this.duty = duty;
        this.buffered = buffered;
        this.shallow = shallow;
        this.buffers = buffers;
        this.sentInline = new NativeOp[] {CompletedOp.create(ops)};
    }

    /** How many of the program's sends and receives the shallow path took in this engine. */
    public long shallowCalls() {
        return shallowCalls;
    }

    /** The description of the next send, to fill (the same object every time). */
    public Transfer sendCall() {
        return send;
    }

    /** The description of the next receive, to fill (the same object every time). */
    public Transfer receiveCall() {
        return receive;
    }

    /**
     * A program's blocking standard send of {@code count} items of {@code type} from the start of {@code buf} (the
     * facade checked that they fit) to {@code dest} with {@code tag}: {@code payload} bytes when {@code buf} is a
     * primitive array (not {@code boolean[]}) holding them densely, else -1. The facade's PROC_NULL and ANY_SOURCE
     * are the native library's (read from the same ABI description the engine runs on).
     */
    public void send(CommStructure comm, Object buf, int count, TypeLayout type, long payload, int dest, int tag) {
        ShallowTransfer s = shallow;
        if (s != null) {
            int r = s.send(comm, buf, payload, dest, tag);
            if (r != ShallowTransfer.NOT_TAKEN) {
                shallowCalls++;
                if (r == ShallowTransfer.PENDING) {
                    detachOrAwait(s.inFlight());
                }
                return;
            }
        }
        send(send.program(comm, buffers.of(buf), count, type, dest, tag).mode(SendMode.STANDARD)
                .wildcards(Empi.PROC_NULL, Empi.ANY_SOURCE));
    }

    /**
     * A program's blocking receive of up to {@code count} items of {@code type} into the start of {@code buf} (the
     * facade checked that they fit; {@code payload} as for {@link #send(CommStructure, Object, int, TypeLayout, long,
     * int, int)}) from {@code source} with {@code tag}; returns what it received.
     */
    public Transfer receive(CommStructure comm, Object buf, int count, TypeLayout type, long payload, int source,
                            int tag) {
        Transfer t = receive;
        ShallowTransfer s = shallow;
        if (s != null) {
            int r = s.receive(comm, buf, count, type, payload, source, tag, Empi.ANY_SOURCE, Empi.ANY_TAG);
            if (r != ShallowTransfer.NOT_TAKEN) {
                shallowCalls++;
                if (r == ShallowTransfer.PENDING) {
                    duty.await(s);
                }
                RecvOp rest = s.complete(t);
                if (rest != null) {
                    duty.await(rest);
                    t.received(rest);
                }
                return t;
            }
        }
        receive(t.program(comm, buffers.of(buf), count, type, source, tag).wildcards(Empi.PROC_NULL, Empi.ANY_SOURCE));
        return t;
    }

    /**
     * A blocking send: returns when the program may reuse its buffer. A buffered one has its room reserved
     * already (the facade's check).
     */
    public void send(Transfer t) {
        if (goesInline(t)) {
            sendInline(t);
            return;
        }
        NativeOp[] sent = post(t);
        // a small standard send is done for the program once staged and started: the duty cycle completes it
        // (SendOp.detachable), which takes a native test off every send
        boolean detached = SendOp.detachable(sent) && orphans.detach(sent);
        if (!detached && sent.length == 1) {
            duty.await(sent[0]);
        } else if (!detached) {
            duty.awaitAll(sent);
        }
        awaitLogRoom();
    }

    /**
     * Starts a send: its operations, one per copy of the destination this copy feeds. A buffered one's are the
     * engine's (charged to the attached buffer); the program then waits on one already complete. A small one of
     * a job without replicas goes inline: the native library usually completes it at once, and then the send
     * returns an operation complete from the start.
     */
    public NativeOp[] startSend(Transfer t) {
        if (goesInline(t)) {
            NativeOp rest = inline.send(t);
            return rest == null ? sentInline : new NativeOp[] {rest};
        }
        return post(t);
    }

    /**
     * Whether a send goes inline: a standard or ready one (a synchronous send completes on the match, a buffered
     * one frees room: neither is done when started) to a peer, which {@link InlineTransfer#sends} takes.
     */
    private boolean goesInline(Transfer t) {
        SendMode mode = t.mode();
        return (mode == SendMode.STANDARD || mode == SendMode.READY) && t.peer() != t.procNull() && inline.sends(t);
    }

    /** Posts a send as operations (see {@link #startSend}). */
    private NativeOp[] post(Transfer t) {
        NativeOp[] sent = SendOp.post(ops, records, t);
        return t.mode() == SendMode.BUFFERED && t.peer() != t.procNull()
                ? buffered.track(sent, t.payloadBytes()) : sent;
    }

    /** A blocking receive; what it received is in {@code t}. */
    public void receive(Transfer t) {
        if (t.peer() != t.procNull() && inline.receives(t)) {
            inline.postReceive(t, true);
            finishInlineReceive(t);
            return;
        }
        RecvOp op = RecvOp.post(ops, records, t);
        duty.await(op);
        t.received(op);
    }

    /** Starts a receive. */
    public RecvOp startReceive(Transfer t) {
        return RecvOp.post(ops, records, t);
    }

    /** A blocking send-receive (two buffers): the receive is posted first; what it received is in {@code recv}. */
    public void sendReceive(Transfer send, Transfer recv) {
        if (bothInline(send, recv)) {
            inline.postReceive(recv, false);
            sendInline(send);
            finishInlineReceive(recv);
            return;
        }
        RecvOp r = RecvOp.post(ops, records, recv);
        NativeOp[] sent = post(send);
        finishSendReceive(sent, r, recv);
    }

    /**
     * A blocking send-receive in one buffer: the send is staged (copied) before the receive can overwrite it;
     * what it received is in {@code recv}.
     */
    public void sendReceiveReplace(Transfer send, Transfer recv) {
        if (bothInline(send, recv)) {
            sendInline(send);
            inline.postReceive(recv, false);
            finishInlineReceive(recv);
            return;
        }
        NativeOp[] sent = post(send);
        RecvOp r = RecvOp.post(ops, records, recv);
        finishSendReceive(sent, r, recv);
    }

    /**
     * The end of a wait on requests (a wait, wait-any, wait-all or wait-some, once its requests are done): a call
     * MPI allows to wait for a receiver, so the log's limit is kept here as after a blocking send.
     */
    public void waitEnded() {
        awaitLogRoom();
    }

    /**
     * If the send log is over its limit, waits until acknowledgements trim it: at the end of the calls MPI allows
     * to wait for a receiver (a blocking send, a send-receive, a wait on requests), so a computational copy never
     * runs ahead of its replicas without bound (docs/DESIGN.md §8).
     */
    private void awaitLogRoom() {
        if (records.overLimit()) {
            duty.await(() -> !records.overLimit());
        }
    }

    /** Whether both halves of a send-receive go inline: a small send to, and a small receive from, a peer. */
    private boolean bothInline(Transfer send, Transfer recv) {
        return send.peer() != send.procNull() && recv.peer() != recv.procNull() && inline.sends(send)
                && inline.receives(recv);
    }

    /** A small send done inline: one the native library did not complete at once is detached. */
    private void sendInline(Transfer t) {
        NativeOp rest = inline.send(t);
        if (rest != null) {
            detachOrAwait(rest);
        }
    }

    /** A small send the native library did not complete at once: detached, or waited for when too many are. */
    private void detachOrAwait(NativeOp rest) {
        if (!orphans.detach(new NativeOp[] {rest})) {
            duty.await(rest);
        }
    }

    /** The end of a receive posted inline: waits for it, unpacks it (or takes its payload apart). */
    private void finishInlineReceive(Transfer t) {
        duty.await(inline);
        RecvOp rest = inline.completeReceive();
        if (rest == null) {
            t.received(inline.source(), inline.tag(), inline.bytes(), false);
            return;
        }
        duty.await(rest);
        t.received(rest);
    }

    /** The end of a send-receive: both sides done, the log back within its limit. */
    private void finishSendReceive(NativeOp[] sent, RecvOp r, Transfer recv) {
        NativeOp[] all = java.util.Arrays.copyOf(sent, sent.length + 1);
        all[sent.length] = r;
        duty.awaitAll(all);
        awaitLogRoom();
        recv.received(r);
    }
}

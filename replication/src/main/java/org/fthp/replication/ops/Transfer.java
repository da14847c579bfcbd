package org.fthp.replication.ops;

import org.fthp.empi.Empi;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/**
 * One point-to-point call as the engine takes it: communicator and channel, the buffer's part and its datatype,
 * the peer (destination or source) and tag, the send mode, and the values the caller uses for "no process" and
 * "any source"; after a blocking receive, what it received. A caller fills one and hands it to {@link SendOp#post}
 * or {@link RecvOp#post}; the operations copy what they keep, so the same description serves the next call. The
 * engine keeps one per kind of call, used under its gate: a call allocates none.
 */
public final class Transfer {

    private CommStructure comm;
    private Channel channel;
    private UserBuffer buf;
    private long startByte;
    private int count;
    private TypeLayout type;
    private int peer;
    private int tag;
    private SendMode mode = SendMode.STANDARD;
    private int procNull = Empi.PROC_NULL;
    private int anySource = Empi.ANY_SOURCE;
    /** A completed receive's outcome: its logical source, tag, payload bytes, and whether it was cancelled. */
    private int receivedSource;
    private int receivedTag;
    private long receivedBytes;
    private boolean cancelled;

    /** On {@code channel} of {@code comm}. */
    public Transfer on(CommStructure comm, Channel channel) {
        this.comm = comm;
        this.channel = channel;
        return this;
    }

    /** {@code count} items of {@code type} from byte {@code startByte} of {@code buf}. */
    public Transfer data(UserBuffer buf, long startByte, int count, TypeLayout type) {
        this.buf = buf;
        this.startByte = startByte;
        this.count = count;
        this.type = type;
        return this;
    }

    /** To or from {@code peer} (a rank of the communicator, or a wildcard) with {@code tag}. */
    public Transfer peer(int peer, int tag) {
        this.peer = peer;
        this.tag = tag;
        return this;
    }

    /**
     * A program's call: {@code count} items of {@code type} from the start of {@code buf}, on the user channel of
     * {@code comm}, to or from {@code peer} with {@code tag} ({@link #on}, {@link #data} and {@link #peer} in one
     * call, for the facade's blocking and nonblocking calls, which the interpreter runs before anything compiles).
     */
    public Transfer program(CommStructure comm, UserBuffer buf, int count, TypeLayout type, int peer, int tag) {
        this.comm = comm;
        this.channel = Channel.USER;
        this.buf = buf;
        this.startByte = UserBuffer.START;
        this.count = count;
        this.type = type;
        this.peer = peer;
        this.tag = tag;
        return this;
    }

    /** A send's mode (a receive ignores it). */
    public Transfer mode(SendMode mode) {
        this.mode = mode;
        return this;
    }

    /** What the caller calls no process ({@code MPI_PROC_NULL}) and any source ({@code MPI_ANY_SOURCE}). */
    public Transfer wildcards(int procNull, int anySource) {
        this.procNull = procNull;
        this.anySource = anySource;
        return this;
    }

    /** The communicator, replaced by its current structure (a wait may have run a repair since it was set). */
    public Transfer onCurrent() {
        comm = comm.current();
        return this;
    }

    public CommStructure comm() { return comm; }
    public Channel channel() { return channel; }
    public UserBuffer buf() { return buf; }
    public long startByte() { return startByte; }
    public int count() { return count; }
    public TypeLayout type() { return type; }
    public int peer() { return peer; }
    public int tag() { return tag; }
    public SendMode mode() { return mode; }
    public int procNull() { return procNull; }
    public int anySource() { return anySource; }

    /** A receive completed with this outcome. */
    public void received(int source, int tag, long bytes, boolean wasCancelled) {
        this.receivedSource = source;
        this.receivedTag = tag;
        this.receivedBytes = bytes;
        this.cancelled = wasCancelled;
    }

    /** A receive completed as {@code op} did. */
    public void received(NativeOp op) {
        received(op.resultSource(), op.resultTag(), op.resultBytes(), op.cancelled());
    }

    public int receivedSource() { return receivedSource; }
    public int receivedTag() { return receivedTag; }
    public long receivedBytes() { return receivedBytes; }
    public boolean cancelled() { return cancelled; }

    /** The packed payload's length. */
    public long payloadBytes() {
        return count * type.size();
    }
}

package mpi;

import java.nio.Buffer;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.ops.SendMode;
import org.fthp.replication.ops.Transfer;
import org.fthp.replication.p2p.NeighborLists;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.Gate;
import org.fthp.replication.runtime.PointToPoint;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommIds;
import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;

/**
 * A communicator as the program sees it. Holds no native handle the program
 * could keep: everything goes through its {@link CommStructure}, which the
 * replication layer can rebuild after a failure.
 */
public class Comm implements Freeable, Cloneable {

    public static final int TYPE_SHARED = 0;
    protected static final int SELF = 1;
    protected static final int WORLD = 2;

    /** Kept for binary compatibility; the facade never exposes native handles. */
    protected long handle;

    /** Where the engine keeps this communicator's current structure; null before MPI.Init (COMM_WORLD, COMM_SELF). */
    CommRef ref;
    Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    private String name = "";
    Attributes attributes = new Attributes(Attributes.COMM_KEYVALS);
    private Request request;

    protected Comm() {
    }

    protected Comm(long handle) {
        this.handle = handle;
    }

    protected Comm(long[] commRequest) {
        this.handle = commRequest[0];
    }

    Comm(CommStructure structure) {
        this.ref = structure == null ? null : new CommRef(structure);
    }

    /**
     * The job's generation this communicator was made in: one made before a rollback in place (see {@code
     * Checkpoint.resilient}) is stale after it. COMM_WORLD and COMM_SELF are re-attached to each new engine.
     */
    private int generation = Engine.currentGeneration();

    /** MPI.Init: COMM_WORLD and COMM_SELF take the engine's references. */
    void attach(CommRef r) {
        this.ref = r;
        this.generation = Engine.currentGeneration();
        int id = r.get().commId();
        this.handle = id;
        if (id == CommIds.WORLD) {
            this.name = "MPI_COMM_WORLD";
            // the logical job's values: the program's tags go up to Args.tagUb(), whatever the replicas
            attributes.setWorldAttributes(Args.tagUb(), r.get().size());
        } else if (id == CommIds.SELF) {
            this.name = "MPI_COMM_SELF";
        }
    }

    /** The current structure; null if this communicator is null or freed. */
    private CommStructure structure() {
        CommRef r = ref;
        return r == null ? null : r.get();
    }

    protected final void setType(int type) {
        // COMM_WORLD and COMM_SELF are bound by MPI.Init.
    }

    /** The structure, or an error if this communicator is null or freed. */
    final CommStructure live() throws MPIException {
        MPI.check();
        return liveInCall();
    }

    /** As {@link #live}, inside a call that holds the gate (which {@link MPI#gate} let it take: MPI runs). */
    private CommStructure liveInCall() throws MPIException {
        CommRef r = ref;
        CommStructure s = r == null ? null : r.get();
        if (s == null) {
            throw Errors.error(MPI.ERR_COMM, "null or freed communicator");
        }
        if (generation != Engine.currentGeneration()) {
            throw Errors.error(MPI.ERR_COMM, "stale communicator: made before the job rolled back in place (only"
                    + " MPI.COMM_WORLD and MPI.COMM_SELF carry over; make it again in the resilient body)");
        }
        return s;
    }

    /** Number of ranks a point-to-point rank argument refers to (remote group for intercommunicators). */
    final int peers() throws MPIException {
        return live().peers();
    }

    /**
     * Applies this communicator's error handler: with ERRORS_RETURN the
     * exception goes to the caller; with ERRORS_ARE_FATAL the job is aborted,
     * as the native library would.
     */
    final MPIException fail(Throwable t) {
        MPIException e = switch (t) {
            case MPIException m -> m;
            case EmpiException ee -> Errors.from(ee);
            case MpiError me -> Errors.from(me);
            case UncheckedMpi u -> u.getCause();
            case IndexOutOfBoundsException ioe -> Errors.error(MPI.ERR_BUFFER, "buffer too small: " + ioe.getMessage());
            case IllegalArgumentException iae -> Errors.error(MPI.ERR_ARG, iae.getMessage());
            case IllegalStateException ise -> Errors.error(MPI.ERR_INTERN, ise.getMessage());
            default -> {
                MPIException m = Errors.error(MPI.ERR_OTHER, String.valueOf(t));
                m.initCause(t);
                yield m;
            }
        };
        // as in Open MPI, an error on a null or freed communicator goes to COMM_WORLD's handler
        Errhandler handler = structure() == null && this != MPI.COMM_WORLD ? MPI.COMM_WORLD.errhandler : errhandler;
        if (handler.isFatal() && Engine.isInitialized() && !Engine.isFinalized()) {
            FatalErrors.abort(this, e);
        }
        return e;
    }

    /** Runs a body, routing every failure through the error handler. */
    final <T> T guard(Body<T> body) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            return body.run();
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    @FunctionalInterface
    interface Body<T> {
        T run() throws MPIException;
    }

    // ---- construction, identity ----

    /** A communicator derived from this one inherits its error handler (MPI 3.1 §8.3). */
    final <C extends Comm> C child(C c) {
        c.errhandler = this.errhandler;
        if (c.ref != null) {
            Engine.get().liveComms().add(c.ref);
        }
        return c;
    }

    /**
     * A dup of this communicator: a child that also inherits the cached
     * attributes, as the binding's copy callback copies every one (MPI 3.1 §6.4.2).
     */
    final <C extends Comm> C duplicate(C c) {
        child(c);
        c.attributes = attributes.copyForDup();
        return c;
    }

    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    public Comm dup() throws MPIException {
        return guard(() -> duplicate(new Comm(Engine.get().structures().dup(live()))));
    }

    public Comm iDup() throws MPIException {
        Comm c = dup();
        c.request = new Request(Requests.completed());
        return c;
    }

    public Comm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    // Open MPI's handle-level helpers, protected for its subclasses. Programs never see native
    // handles here (they could not survive a repair), so these exist for linking and refuse.

    protected final long dup(long comm) throws MPIException {
        throw Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, "native communicator handles are not exposed by FTHP-J");
    }

    protected final long[] iDup(long comm) throws MPIException {
        throw Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, "native communicator handles are not exposed by FTHP-J");
    }

    protected final long dupWithInfo(long comm, long info) throws MPIException {
        throw Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, "native communicator handles are not exposed by FTHP-J");
    }

    public final Request getRequest() {
        return request;
    }

    final void setRequest(Request r) {
        this.request = r;
    }

    public final int getSize() throws MPIException {
        return live().size();
    }

    public final int getRank() throws MPIException {
        return live().rank();
    }

    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        MPI.check();
        CommStructure a = comm1.live();
        CommStructure b = comm2.live();
        if (comm1 == comm2 || a == b) {
            return MPI.IDENT;
        }
        int[] ra = a.worldRanks();
        int[] rb = b.worldRanks();
        if (java.util.Arrays.equals(ra, rb) && java.util.Arrays.equals(a.remoteWorldRanks(), b.remoteWorldRanks())) {
            return MPI.CONGRUENT;
        }
        int[] sa = ra.clone();
        int[] sb = rb.clone();
        java.util.Arrays.sort(sa);
        java.util.Arrays.sort(sb);
        return java.util.Arrays.equals(sa, sb) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    @Override
    public final void free() throws MPIException {
        CommStructure s = live();
        if (s.commId() == CommIds.WORLD || s.commId() == CommIds.SELF) {
            throw fail(Errors.error(MPI.ERR_COMM, "MPI.COMM_WORLD and MPI.COMM_SELF cannot be freed"));
        }
        guard(() -> {
            Engine.get().release().free(ref);
            attributes.clear();
            return null;
        });
    }

    public final boolean isNull() {
        return structure() == null;
    }

    public final void setInfo(Info info) throws MPIException {
        live();
    }

    public final Info getInfo() throws MPIException {
        live();
        return new Info();
    }

    public final void disconnect() throws MPIException {
        free();
    }

    public final Group getGroup() throws MPIException {
        return new Group(live().worldRanks());
    }

    public final boolean isInter() throws MPIException {
        return live().isInter();
    }

    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader,
            int tag) throws MPIException {
        CommStructure peer = live();
        CommStructure local = localComm.live();
        return localComm.guard(() -> {
            Args.root(localLeader, local.size());
            if (local.rank() == localLeader) {
                Args.root(remoteLeader, peer.size());
            }
            return localComm.child(new Intercomm(Engine.get().structures().intercomm(local, localLeader, peer,
                    remoteLeader, tag)));
        });
    }

    // ---- point-to-point ----

    /**
     * Checks a send's arguments, each once, and describes it in {@code t} in the engine's terms: the engine takes
     * them as they are. A buffered-mode message larger than the eager limit must fit the attached buffer now
     * ({@link BufferedMode}); waiting for that room may have run a repair, so {@code t} then points at the
     * communicator's current structure.
     */
    private Transfer describeSend(Transfer t, Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        CommStructure s = liveInCall();
        TypeLayout layout = sendArgs(s, count, type, dest, tag);
        UserBuffer ub = Args.buffer(buf, UserBuffer.START, count, layout);
        long bytes = count * layout.size();
        if (dest != MPI.PROC_NULL) {
            Args.payload(bytes);
        }
        t.program(s, ub, count, layout, dest, tag).mode(mode).wildcards(MPI.PROC_NULL, MPI.ANY_SOURCE);
        if (mode == SendMode.BUFFERED && dest != MPI.PROC_NULL) {
            BufferedMode.reserve(bytes);
            t.onCurrent();
        }
        return t;
    }

    /** Checks a send's count, destination and tag; returns its datatype's layout. */
    private static TypeLayout sendArgs(CommStructure s, int count, Datatype type, int dest, int tag)
            throws MPIException {
        if (count >= 0 && dest >= 0 && dest < s.peers() && tag >= 0 && tag <= Args.ALWAYS_VALID_TAGS && type != null) {
            return type.layoutForCommunication();   // the usual call, checked without a call per argument
        }
        Args.count(count);
        Args.dest(dest, s.peers());
        Args.sendTag(tag);
        return Args.type(type);
    }

    /** Checks a receive's arguments, each once, and describes it in {@code t} in the engine's terms. */
    private Transfer describeRecv(Transfer t, Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        CommStructure s = liveInCall();
        TypeLayout layout = recvArgs(s, count, type, source, tag);
        UserBuffer ub = Args.buffer(buf, UserBuffer.START, count, layout);
        return t.program(s, ub, count, layout, source, tag).wildcards(MPI.PROC_NULL, MPI.ANY_SOURCE);
    }

    /** Checks a receive's count, source and tag; returns its datatype's layout. */
    private static TypeLayout recvArgs(CommStructure s, int count, Datatype type, int source, int tag)
            throws MPIException {
        if (count >= 0 && source >= 0 && source < s.peers() && tag >= 0 && tag <= Args.ALWAYS_VALID_TAGS
                && type != null) {
            return type.layoutForCommunication();   // the usual call, checked without a call per argument
        }
        Args.count(count);
        Args.source(source, s.peers());
        Args.recvTag(tag);
        return Args.type(type);
    }

    /** What a blocking receive described by {@code t} received. */
    private static Status received(Transfer t) {
        return new Status(t.receivedSource(), t.receivedTag(), MPI.SUCCESS, t.cancelled(), t.receivedBytes(),
                MPI.UNDEFINED);
    }

    private void sendBlocking(Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {   // no guard(lambda) on the hottest paths: every nanosecond shows in small-message latency
            PointToPoint p2p = Engine.get().pointToPoint();
            p2p.send(describeSend(p2p.sendCall(), buf, count, type, dest, tag, mode));
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {   // the program's own arguments to the engine's entry: nothing wrapped or described on the way
            CommStructure s = liveInCall();
            TypeLayout layout = sendArgs(s, count, type, dest, tag);
            long payload = Args.arrayPayload(buf, count, layout, dest != MPI.PROC_NULL);
            Engine.get().pointToPoint().send(s, buf, count, layout, payload, dest, tag);
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            CommStructure s = liveInCall();
            TypeLayout layout = recvArgs(s, count, type, source, tag);
            long payload = Args.arrayPayload(buf, count, layout, false);
            return received(Engine.get().pointToPoint().receive(s, buf, count, layout, payload, source, tag));
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {   // no guard(lambda): it would capture ten arguments on every call
            PointToPoint p2p = Engine.get().pointToPoint();
            Transfer recv = describeRecv(p2p.receiveCall(), recvbuf, recvcount, recvtype, source, recvtag);
            Transfer send = describeSend(p2p.sendCall(), sendbuf, sendcount, sendtype, dest, sendtag,
                    SendMode.STANDARD);
            p2p.sendReceive(send, recv);
            return received(recv);
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag,
                                        int source, int recvtag) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            CommStructure s = live();
            TypeLayout layout = sendArgs(s, count, type, dest, sendtag);
            Args.source(source, s.peers());   // count and type are the send's, checked just above
            Args.recvTag(recvtag);
            UserBuffer ub = Args.buffer(buf, UserBuffer.START, count, layout);
            if (dest != MPI.PROC_NULL) {
                Args.payload(count * layout.size());
            }
            PointToPoint p2p = Engine.get().pointToPoint();
            Transfer send = p2p.sendCall().on(s, Channel.USER).data(ub, UserBuffer.START, count, layout)
                    .peer(dest, sendtag).mode(SendMode.STANDARD).wildcards(MPI.PROC_NULL, MPI.ANY_SOURCE);
            Transfer recv = p2p.receiveCall().on(s, Channel.USER).data(ub, UserBuffer.START, count, layout)
                    .peer(source, recvtag).wildcards(MPI.PROC_NULL, MPI.ANY_SOURCE);
            p2p.sendReceiveReplace(send, recv);
            return received(recv);
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        sendBlocking(buf, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        sendBlocking(buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        sendBlocking(buf, count, type, dest, tag, SendMode.READY);
    }

    /** Starts a send, checked: its operations (a buffered one's complete at once). */
    private NativeOp[] startSend(Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        PointToPoint p2p = Engine.get().pointToPoint();
        return p2p.startSend(describeSend(p2p.sendCall(), buf, count, type, dest, tag, mode));
    }

    /** Starts a receive, checked. */
    private RecvOp startRecv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        PointToPoint p2p = Engine.get().pointToPoint();
        return p2p.startReceive(describeRecv(p2p.receiveCall(), buf, count, type, source, tag));
    }

    private Request iSendMode(Buffer buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {   // no guard(lambda): it would capture six arguments on every call
            Args.direct(buf);
            return new Request(this, startSend(buf, count, type, dest, tag, mode));
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSendMode(buf, count, type, dest, tag, SendMode.STANDARD);
    }

    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSendMode(buf, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSendMode(buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSendMode(buf, count, type, dest, tag, SendMode.READY);
    }

    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            Args.direct(buf);
            return new Request(this, startRecv(buf, count, type, source, tag));
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    private Prequest sendInitMode(Buffer buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            live();
            Args.count(count);
            Args.dest(dest, peers());
            Args.sendTag(tag);
            Args.buffer(buf, 0, count, type);
            return new Prequest(this, () -> startSend(buf, count, type, dest, tag, mode));
        });
    }

    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInitMode(buf, count, type, dest, tag, SendMode.STANDARD);
    }

    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInitMode(buf, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInitMode(buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInitMode(buf, count, type, dest, tag, SendMode.READY);
    }

    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            live();
            Args.count(count);
            Args.source(source, peers());
            Args.recvTag(tag);
            Args.buffer(buf, 0, count, type);
            return new Prequest(this, () -> new NativeOp[] {startRecv(buf, count, type, source, tag)});
        });
    }

    // ---- pack ----

    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        return guard(() -> {
            live();
            TypeLayout layout = Args.type(type);
            UserBuffer in = Args.buffer(inbuf, UserBuffer.START, incount, type);
            long bytes = incount * layout.size();
            if (position < 0 || outbuf == null || position + bytes > outbuf.length) {
                throw Errors.error(MPI.ERR_TRUNCATE, "pack of " + bytes + " bytes at " + position
                        + " does not fit the output buffer");
            }
            Packer.packToBytes(in, UserBuffer.START, incount, layout, outbuf, position);
            return (int) (position + bytes);
        });
    }

    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type)
            throws MPIException {
        return guard(() -> {
            live();
            TypeLayout layout = Args.type(type);
            UserBuffer out = Args.buffer(outbuf, UserBuffer.START, outcount, type);
            long bytes = outcount * layout.size();
            if (position < 0 || inbuf == null || position + bytes > inbuf.length) {
                throw Errors.error(MPI.ERR_TRUNCATE, "unpack of " + bytes + " bytes at " + position
                        + " runs past the input buffer");
            }
            Packer.unpackFromBytes(inbuf, position, out, UserBuffer.START, outcount, layout);
            return (int) (position + bytes);
        });
    }

    public final int packSize(int incount, Datatype type) throws MPIException {
        return guard(() -> {
            live();
            Args.count(incount);
            return (int) (incount * Args.type(type).size());
        });
    }

    // ---- probe ----

    public final Status iProbe(int source, int tag) throws MPIException {
        return guard(() -> ProbeCalls.iprobe(this, source, tag));
    }

    public final Status probe(int source, int tag) throws MPIException {
        return guard(() -> ProbeCalls.probe(this, source, tag));
    }

    // ---- attributes, topology, errors ----

    public static int createKeyval() throws MPIException {
        return Attributes.COMM_KEYVALS.create();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        try {
            Attributes.COMM_KEYVALS.free(keyval);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.fail(e);
        }
    }

    public final void setAttr(int keyval, Object value) throws MPIException {
        guard(() -> {
            live();
            attributes.set(keyval, value);
            return null;
        });
    }

    /** The cached value (a copy), the predefined value on COMM_WORLD and its dups, or null if none. */
    public final Object getAttr(int keyval) throws MPIException {
        return guard(() -> {
            live();
            return attributes.get(keyval);
        });
    }

    public final void deleteAttr(int keyval) throws MPIException {
        guard(() -> {
            live();
            attributes.delete(keyval);
            return null;
        });
    }

    public final int getTopology() throws MPIException {
        live();
        return topologyKind();
    }

    /** MPI.CART, MPI.GRAPH, MPI.DIST_GRAPH or MPI.UNDEFINED; topology communicators override it. */
    int topologyKind() {
        return MPI.UNDEFINED;
    }

    /** In-neighbours, out-neighbours and per-neighbour tags for neighbourhood collectives. */
    NeighborLists neighborLists() throws MPIException {
        throw Errors.error(MPI.ERR_TOPOLOGY, "neighbourhood collectives need a Cartesian or graph communicator");
    }

    public final void abort(int errorcode) throws MPIException {
        live();
        FatalErrors.abortJob(errorcode, "rank " + org.fthp.replication.runtime.Engine.get().logicalRank()
                + " called MPI_Abort(" + errorcode + ")");
    }

    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        live();
        if (errhandler == null) {
            throw fail(Errors.error(MPI.ERR_ARG, "error handler is null"));
        }
        this.errhandler = errhandler;
    }

    public final Errhandler getErrhandler() throws MPIException {
        live();
        return errhandler;
    }

    /**
     * MPI_Comm_call_errhandler: invokes this communicator's handler with the
     * code. ERRORS_ARE_FATAL aborts the job; ERRORS_RETURN returns normally,
     * as MPI_Comm_call_errhandler returns MPI_SUCCESS once the handler returned
     * (MPI 3.1 §8.3.6) and Open MPI's binding raises nothing then.
     */
    public void callErrhandler(int errorCode) throws MPIException {
        MPI.check();
        if (structure() == null) {
            // as Open MPI: an invalid communicator's error goes to COMM_WORLD's handler (fail does that)
            throw fail(Errors.error(MPI.ERR_COMM, "callErrhandler on a null or freed communicator"));
        }
        fail(new MPIException(errorCode, Empi.errorClassOf(errorCode), Empi.errorString(errorCode)));
    }

    public final void setName(String name) throws MPIException {
        live();
        this.name = name == null ? "" : name;
    }

    public final String getName() throws MPIException {
        live();
        return name;
    }

    // ---- collectives ----

    public final void barrier() throws MPIException {
        guard(() -> Collectives.await(Collectives.barrier(live())));
    }

    public final Request iBarrier() throws MPIException {
        return guard(() -> new Request(this, Collectives.barrier(live())));
    }

    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.bcast(this, buf, count, type, root)));
    }

    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, Collectives.bcast(this, buf, count, type, root));
        });
    }

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.gather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, root, false)));
    }

    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.gather(this, buf, count, type, buf, count, type, root, true)));
    }

    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                 Datatype recvtype, int root) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.gather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, root, false));
        });
    }

    public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, Collectives.gather(this, buf, count, type, buf, count, type, root, true));
        });
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                              int[] displs, Datatype recvtype, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.gatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype, root, false)));
    }

    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        guard(() -> Collectives.await(Collectives.gatherv(this, null, 0, recvtype, recvbuf, recvcount, displs,
                recvtype, root, true)));
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.gatherv(this, sendbuf, sendcount, sendtype, null, null, null,
                sendtype, root, false)));
    }

    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                                  int[] displs, Datatype recvtype, int root) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.gatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    displs, recvtype, root, false));
        });
    }

    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return guard(() -> {
            Args.direct(recvbuf);
            return new Request(this, Collectives.gatherv(this, null, 0, recvtype, recvbuf, recvcount, displs,
                    recvtype, root, true));
        });
    }

    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            return new Request(this, Collectives.gatherv(this, sendbuf, sendcount, sendtype, null, null, null,
                    sendtype, root, false));
        });
    }

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.scatter(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, root, false)));
    }

    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.scatter(this, buf, count, type, buf, count, type, root, true)));
    }

    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                  Datatype recvtype, int root) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.scatter(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, root, false));
        });
    }

    public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, Collectives.scatter(this, buf, count, type, buf, count, type, root, true));
        });
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.scatterv(this, sendbuf, sendcount, displs, sendtype, recvbuf,
                recvcount, recvtype, root, false)));
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        guard(() -> Collectives.await(Collectives.scatterv(this, sendbuf, sendcount, displs, sendtype, null, 0,
                sendtype, root, true)));
    }

    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        guard(() -> Collectives.await(Collectives.scatterv(this, null, null, null, recvtype, recvbuf, recvcount,
                recvtype, root, false)));
    }

    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf,
                                   int recvcount, Datatype recvtype, int root) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.scatterv(this, sendbuf, sendcount, displs, sendtype, recvbuf,
                    recvcount, recvtype, root, false));
        });
    }

    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            return new Request(this, Collectives.scatterv(this, sendbuf, sendcount, displs, sendtype, null, 0,
                    sendtype, root, true));
        });
    }

    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return guard(() -> {
            Args.direct(recvbuf);
            return new Request(this, Collectives.scatterv(this, null, null, null, recvtype, recvbuf, recvcount,
                    recvtype, root, false));
        });
    }

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype) throws MPIException {
        guard(() -> Collectives.await(Collectives.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, false)));
    }

    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        guard(() -> Collectives.await(Collectives.allGather(this, buf, count, type, buf, count, type, true)));
    }

    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                    Datatype recvtype) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, false));
        });
    }

    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, Collectives.allGather(this, buf, count, type, buf, count, type, true));
        });
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                 int[] displs, Datatype recvtype) throws MPIException {
        guard(() -> Collectives.await(Collectives.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype, false)));
    }

    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype)
            throws MPIException {
        guard(() -> Collectives.await(Collectives.allGatherv(this, null, 0, recvtype, recvbuf, recvcount, displs,
                recvtype, true)));
    }

    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                     int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    displs, recvtype, false));
        });
    }

    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, Collectives.allGatherv(this, null, 0, type, buf, count, displs, type, true));
        });
    }

    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) throws MPIException {
        guard(() -> Collectives.await(Collectives.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype)));
    }

    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                   Datatype recvtype) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype));
        });
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        guard(() -> Collectives.await(Collectives.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype)));
    }

    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                    Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Collectives.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                    recvcount, rdispls, recvtype));
        });
    }

    public final void allToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        guard(() -> Collectives.await(Collectives.allToAllw(this, sendBuf, sendCount, sDispls, sendTypes, recvBuf,
                recvCount, rDispls, recvTypes)));
    }

    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                    Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        return guard(() -> new Request(this, Collectives.allToAllw(this, sendBuf, sendCount, sDispls, sendTypes,
                recvBuf, recvCount, rDispls, recvTypes)));
    }

    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                        int recvcount, Datatype recvtype) throws MPIException {
        guard(() -> Neighbors.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype).waitStatus());
    }

    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                            int recvcount, Datatype recvtype) throws MPIException {
        return guard(() -> Neighbors.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                         int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        guard(() -> Neighbors.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype)
                .waitStatus());
    }

    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                             int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return guard(() -> Neighbors.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype));
    }

    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                       int recvcount, Datatype recvtype) throws MPIException {
        guard(() -> Neighbors.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype).waitStatus());
    }

    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                           int recvcount, Datatype recvtype) throws MPIException {
        return guard(() -> Neighbors.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                        Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        guard(() -> Neighbors.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                recvtype).waitStatus());
    }

    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        return guard(() -> Neighbors.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount,
                rdispls, recvtype));
    }

    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.reduce(this, sendbuf, recvbuf, count, type, op, root, false)));
    }

    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.reduce(this, buf, buf, count, type, op, root, true)));
    }

    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, ReductionCalls.reduce(this, sendbuf, recvbuf, count, type, op, root, false));
        });
    }

    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, ReductionCalls.reduce(this, buf, buf, count, type, op, root, true));
        });
    }

    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        allReduceBlocking(sendbuf, recvbuf, count, type, op, false);
    }

    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        allReduceBlocking(buf, buf, count, type, op, true);
    }

    /** No guard(lambda): an iterative solver's dot products make this the hottest collective. */
    private void allReduceBlocking(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace)
            throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            NativeOp started = ReductionCalls.allReduce(this, sendbuf, recvbuf, count, type, op, inPlace, true);
            if (started != null) {
                Collectives.await(started);
            }
        } catch (MPIException | RuntimeException e) {
            throw fail(e);
        } finally {
            gate.exit();
        }
    }

    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, ReductionCalls.allReduce(this, sendbuf, recvbuf, count, type, op, false, false));
        });
    }

    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, ReductionCalls.allReduce(this, buf, buf, count, type, op, true, false));
        });
    }

    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        guard(() -> Collectives.await(
                ReductionCalls.reduceScatter(this, sendbuf, recvbuf, recvcounts, type, op, false)));
    }

    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.reduceScatter(this, buf, buf, counts, type, op, true)));
    }

    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, ReductionCalls.reduceScatter(this, sendbuf, recvbuf, recvcounts, type, op, false));
        });
    }

    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, ReductionCalls.reduceScatter(this, buf, buf, counts, type, op, true));
        });
    }

    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.reduceScatterBlock(this, sendbuf, recvbuf, recvcount, type, op,
                false)));
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.reduceScatterBlock(this, buf, buf, count, type, op, true)));
    }

    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, ReductionCalls.reduceScatterBlock(this, sendbuf, recvbuf, recvcount, type, op,
                    false));
        });
    }

    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, ReductionCalls.reduceScatterBlock(this, buf, buf, count, type, op, true));
        });
    }

    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op)
            throws MPIException {
        MPI.check();
        MPI.COMM_SELF.guard(() -> {
            ReductionCalls.reduceLocal(inBuf, inOutBuf, count, type, op);
            return null;
        });
    }
}

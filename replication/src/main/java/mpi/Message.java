package mpi;

import java.nio.Buffer;

import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.p2p.MatchedMessage;
import org.fthp.replication.p2p.MatchedProbes;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.PointToPoint;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/** A message matched by a matched probe, to be received by {@link #mRecv} or {@link #imRecv}. */
public final class Message {

    protected long handle;
    /** A message the library still holds, and one already received whole (header only); received in that order. */
    private MatchedMessage inLibrary;
    private MatchedMessage arrived;
    private Comm comm;
    private boolean noProc;

    public Message() {
    }

    public boolean isNull() {
        return inLibrary == null && arrived == null && !noProc;
    }

    public boolean isNoProc() {
        return noProc;
    }

    /** A blocking matched probe: only a wildcard source needs the computational copy's decision. */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        return comm.guard(() -> {
            ProbeCalls.check(comm, source, tag);
            CommStructure s = comm.live();
            if (source == MPI.PROC_NULL) {
                return holdNoProc(comm);
            }
            return hold(comm, MatchedProbes.mprobe(Engine.get(), s, source, tag));
        });
    }

    /** A nonblocking matched probe: its flag is timing, decided by the computational copy. */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        return comm.guard(() -> {
            ProbeCalls.check(comm, source, tag);
            CommStructure s = comm.live();
            if (source == MPI.PROC_NULL) {
                return holdNoProc(comm);
            }
            MatchedMessage m = MatchedProbes.improbe(Engine.get(), s, source, tag);
            return m == null ? null : hold(comm, m);
        });
    }

    private Status holdNoProc(Comm comm) {
        this.comm = comm;
        this.noProc = true;
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
    }

    private Status hold(Comm comm, MatchedMessage m) {
        this.comm = comm;
        if (m.arrivedWhole()) {
            this.arrived = m;
        } else {
            this.inLibrary = m;
        }
        this.handle = 1;
        return ProbeCalls.status(m.probed());
    }

    private RecvOp receive(Object buf, int count, Datatype type) throws MPIException {
        if (comm == null || (inLibrary == null && arrived == null && !noProc)) {
            throw Errors.error(MPI.ERR_REQUEST, "no message has been matched (call mProbe or imProbe first)");
        }
        CommStructure s = comm.live();
        TypeLayout layout = Args.type(type);
        Args.count(count);
        UserBuffer ub = Args.buffer(buf, UserBuffer.START, count, layout);
        Engine engine = Engine.get();
        if (noProc) {
            noProc = false;
            PointToPoint p2p = engine.pointToPoint();
            return p2p.startReceive(p2p.receiveCall().on(s, Channel.USER).data(ub, 0, count, layout)
                    .peer(MPI.PROC_NULL, MPI.ANY_TAG).wildcards(MPI.PROC_NULL, MPI.ANY_SOURCE));
        }
        MatchedMessage m;
        if (arrived != null) {
            m = arrived;
            arrived = null;
        } else {
            m = inLibrary;
            inLibrary = null;
        }
        handle = 0;
        return m.receive(engine, s, ub, count, layout);
    }

    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        Comm c = comm != null ? comm : MPI.COMM_WORLD;
        return c.guard(() -> {
            RecvOp op = receive(buf, count, type);
            Engine.get().await(op);
            return Requests.status(op);
        });
    }

    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        Comm c = comm != null ? comm : MPI.COMM_WORLD;
        return c.guard(() -> {
            Args.direct(buf);
            return new Request(c, receive(buf, count, type));
        });
    }
}

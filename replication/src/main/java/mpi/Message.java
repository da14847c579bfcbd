package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;

import org.fthp.empi.Empi;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.Endpoint;
import org.fthp.replication.twins.Twins;

/** A message matched by a matched probe, to be received by {@link #mRecv} or {@link #imRecv}. */
public final class Message {

    protected long handle;
    private MemorySegment nativeMessage;
    private org.fthp.replication.structure.ArrivedMessages.Arrival arrival;
    private Comm comm;
    private boolean noProc;

    public Message() {
    }

    public boolean isNull() {
        return nativeMessage == null && arrival == null && !noProc;
    }

    public boolean isNoProc() {
        return noProc;
    }

    /** A blocking matched probe: only a wildcard source needs the computational copy's decision. */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        return comm.guard(() -> {
            Probes.check(comm, source, tag);
            CommStructure s = comm.live();
            if (source == MPI.PROC_NULL || source != MPI.ANY_SOURCE || s.twin() == null) {
                return mProbeLocal(comm, s, source, tag);
            }
            long[] d = Twins.follows(s) ? Engine.get().twins().await(s, 2) : null;
            if (d != null) {
                return mProbeLocal(comm, s.current(), (int) d[0], (int) d[1]);
            }
            Status st = mProbeLocal(comm, s.current(), source, tag);
            Engine.get().twins().decide(s, st.getSource(), st.getTag());
            return st;
        });
    }

    /** A nonblocking matched probe: its flag is timing, decided by the computational copy. */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        return comm.guard(() -> {
            Probes.check(comm, source, tag);
            CommStructure s = comm.live();
            if (source == MPI.PROC_NULL || s.twin() == null) {
                return imProbeLocal(comm, s, source, tag);
            }
            long[] d = Twins.follows(s) ? Engine.get().twins().await(s, 3) : null;
            if (d != null) {
                return d[0] == 0 ? null : mProbeLocal(comm, s.current(), (int) d[1], (int) d[2]);
            }
            Status st = imProbeLocal(comm, s.current(), source, tag);
            Engine.get().twins().decide(s, st == null ? 0 : 1, st == null ? 0 : st.getSource(),
                    st == null ? 0 : st.getTag());
            return st;
        });
    }

    private Status mProbeLocal(Comm comm, CommStructure s, int source, int tag) throws MPIException {
        Status[] found = {null};
        Requests.await(() -> (found[0] = imProbeLocal(comm, s.current(), source, tag)) != null);
        return found[0];
    }

    private Status imProbeLocal(Comm comm, CommStructure s, int source, int tag) throws MPIException {
        if (source == MPI.PROC_NULL) {
            this.comm = comm;
            this.noProc = true;
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
        }
        var early = s.arrived().take(source, tag, MPI.ANY_SOURCE, Empi.ANY_TAG);
        if (early != null) {
            return hold(comm, early);
        }
        Endpoint from = Probes.endpoint(s, source);
        MemorySegment msg = Arena.ofAuto().allocate(Math.max(8, Empi.HANDLE_BYTES), 8);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment status = Empi.allocateStatuses(a, 1);
            Empi.improbe(Probes.nativeSource(from, source), tag, from.comm(), flag, msg, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return null;
            }
            if (Empi.statusBytes(status, 0, flag) == org.fthp.msglog.MessageHeader.BYTES) {
                // header only: its header, not its native size, tells the program's count
                return hold(comm, Probes.readHeaderOnly(msg, Empi.statusTag(status, 0)));
            }
            this.comm = comm;
            this.nativeMessage = msg;
            this.handle = 1;
            return Probes.statusOf(s, source, status, flag);
        }
    }

    private Status hold(Comm comm, org.fthp.replication.structure.ArrivedMessages.Arrival early) {
        this.comm = comm;
        this.arrival = early;
        this.handle = 1;
        return Probes.statusOf(early);
    }

    private RecvOp receive(Object buf, int count, Datatype type) throws MPIException {
        if (comm == null || (nativeMessage == null && arrival == null && !noProc)) {
            throw Errors.error(MPI.ERR_REQUEST, "no message has been matched (call mProbe or imProbe first)");
        }
        CommStructure s = comm.live();
        TypeLayout layout = Args.type(type);
        UserBuffer ub = Args.buffer(buf, UserBuffer.START, count, type);
        if (noProc) {
            noProc = false;
            return RecvOp.post(Engine.get().ops(), Engine.get().records(), s,
                    org.fthp.replication.structure.Channel.USER, ub,
                    0, count, layout, MPI.PROC_NULL, MPI.ANY_TAG, MPI.PROC_NULL, MPI.ANY_SOURCE);
        }
        if (arrival != null) {
            var a = arrival;
            arrival = null;
            handle = 0;
            return RecvOp.arrived(Engine.get().ops(), Engine.get().records(), s, ub, UserBuffer.START, count, layout,
                    a);
        }
        MemorySegment msg = nativeMessage;
        nativeMessage = null;
        handle = 0;
        return RecvOp.matched(Engine.get().ops(), Engine.get().records(), s, ub, UserBuffer.START, count, layout, msg);
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

package mpi;

import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/**
 * Neighbourhood collectives as sets of point-to-point operations on the
 * communicator's internal channel, so they follow the same routing (and,
 * later, the same logging) as every other message without a user's wildcard
 * receive ever matching them.
 */
final class Neighbors {

    static final int TAG_BASE = 1;

    /**
     * Who to receive from and send to, in the standard's order, and the tag
     * each message carries (so two edges to the same process stay apart).
     */
    record Lists(int[] in, int[] inTags, int[] out, int[] outTags) {}

    private Neighbors() {}

    private static Request run(Comm comm, Object sendbuf, int[] scounts, long[] sdispl, Datatype stype,
                               Object recvbuf, int[] rcounts, long[] rdispl, Datatype rtype) throws MPIException {
        CommStructure s = comm.live();
        Lists l = comm.neighborLists();
        TypeLayout sl = Args.type(stype);
        TypeLayout rl = Args.type(rtype);
        List<NativeOp> ops = new ArrayList<>();
        for (int k = 0; k < l.in().length; k++) {
            long start = UserBuffer.START + rdispl[k] * rl.extent();
            var ub = Args.buffer(recvbuf, start, rcounts[k], rtype);
            ops.add(RecvOp.post(Engine.get().ops(), Engine.get().records(), s, Channel.INTERNAL, ub, start,
                    rcounts[k], rl,
                    l.in()[k], l.inTags()[k], MPI.PROC_NULL, MPI.ANY_SOURCE));
        }
        for (int k = 0; k < l.out().length; k++) {
            long start = UserBuffer.START + sdispl[k] * sl.extent();
            var ub = Args.buffer(sendbuf, start, scounts[k], stype);
            ops.addAll(List.of(SendOp.post(Engine.get().ops(), Engine.get().records(), s, Channel.INTERNAL, ub, start,
                    scounts[k], sl, l.out()[k], l.outTags()[k], SendOp.Mode.STANDARD, MPI.PROC_NULL)));
        }
        return new Request(comm, ops.toArray(new NativeOp[0]));
    }

    private static int[] filled(int n, int v) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, v);
        return a;
    }

    private static long[] steps(int n, long step) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * step;
        }
        return a;
    }

    private static long[] longs(int[] a, int n) throws MPIException {
        if (a == null || a.length < n) {
            throw Errors.error(MPI.ERR_ARG, "displacements need " + n + " entries");
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = a[i];
        }
        return out;
    }

    static Request allGather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                             int recvcount, Datatype recvtype) throws MPIException {
        Lists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        return run(comm, sendbuf, filled(out, sendcount), new long[out], sendtype,
                recvbuf, filled(in, recvcount), steps(in, recvcount), recvtype);
    }

    static Request allGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                              int[] recvcounts, int[] displs, Datatype recvtype) throws MPIException {
        Lists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        Args.counts(recvcounts, displs, in);
        return run(comm, sendbuf, filled(out, sendcount), new long[out], sendtype,
                recvbuf, recvcounts, longs(displs, in), recvtype);
    }

    static Request allToAll(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int recvcount, Datatype recvtype) throws MPIException {
        Lists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        return run(comm, sendbuf, filled(out, sendcount), steps(out, sendcount), sendtype,
                recvbuf, filled(in, recvcount), steps(in, recvcount), recvtype);
    }

    static Request allToAllv(Comm comm, Object sendbuf, int[] sendcounts, int[] sdispls, Datatype sendtype,
                             Object recvbuf, int[] recvcounts, int[] rdispls, Datatype recvtype) throws MPIException {
        Lists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        Args.counts(sendcounts, sdispls, out);
        Args.counts(recvcounts, rdispls, in);
        return run(comm, sendbuf, sendcounts, longs(sdispls, out), sendtype,
                recvbuf, recvcounts, longs(rdispls, in), recvtype);
    }
}

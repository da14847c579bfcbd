package mpi;

import org.fthp.replication.collective.Region;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.p2p.NeighborExchange;
import org.fthp.replication.p2p.NeighborLists;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;

/**
 * Neighbourhood collectives in the program's terms: checks counts,
 * displacements and buffers, turns each neighbour's block into a region of
 * the program's buffer, and starts the engine's exchange
 * ({@code p2p.NeighborExchange}) as one request.
 */
final class Neighbors {

    private Neighbors() {}

    private static Request run(Comm comm, Object sendbuf, int[] scounts, long[] sdispl, Datatype stype,
                               Object recvbuf, int[] rcounts, long[] rdispl, Datatype rtype) throws MPIException {
        CommStructure s = comm.live();
        NeighborLists l = comm.neighborLists();
        TypeLayout sl = Args.type(stype);
        TypeLayout rl = Args.type(rtype);
        Region[] in = new Region[l.in().length];
        for (int k = 0; k < in.length; k++) {
            long start = UserBuffer.START + rdispl[k] * rl.extent();
            Args.count(rcounts[k]);
            in[k] = new Region(Args.buffer(recvbuf, start, rcounts[k], rl), start, rcounts[k], rl);
        }
        Region[] out = new Region[l.out().length];
        for (int k = 0; k < out.length; k++) {
            long start = UserBuffer.START + sdispl[k] * sl.extent();
            Args.count(scounts[k]);
            out[k] = new Region(Args.buffer(sendbuf, start, scounts[k], sl), start, scounts[k], sl);
            if (l.out()[k] != MPI.PROC_NULL) {
                Args.payload(out[k].bytes());
            }
        }
        return new Request(comm, NeighborExchange.start(Engine.get(), s, l, in, out));
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
        NeighborLists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        return run(comm, sendbuf, filled(out, sendcount), new long[out], sendtype,
                recvbuf, filled(in, recvcount), steps(in, recvcount), recvtype);
    }

    static Request allGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                              int[] recvcounts, int[] displs, Datatype recvtype) throws MPIException {
        NeighborLists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        Args.counts(recvcounts, displs, in);
        return run(comm, sendbuf, filled(out, sendcount), new long[out], sendtype,
                recvbuf, recvcounts, longs(displs, in), recvtype);
    }

    static Request allToAll(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int recvcount, Datatype recvtype) throws MPIException {
        NeighborLists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        return run(comm, sendbuf, filled(out, sendcount), steps(out, sendcount), sendtype,
                recvbuf, filled(in, recvcount), steps(in, recvcount), recvtype);
    }

    static Request allToAllv(Comm comm, Object sendbuf, int[] sendcounts, int[] sdispls, Datatype sendtype,
                             Object recvbuf, int[] recvcounts, int[] rdispls, Datatype recvtype) throws MPIException {
        NeighborLists l = comm.neighborLists();
        int in = l.in().length;
        int out = l.out().length;
        Args.counts(sendcounts, sdispls, out);
        Args.counts(recvcounts, rdispls, in);
        return run(comm, sendbuf, sendcounts, longs(sdispls, out), sendtype,
                recvbuf, recvcounts, longs(rdispls, in), recvtype);
    }
}

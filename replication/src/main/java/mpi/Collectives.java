package mpi;

import org.fthp.replication.collective.Blocks;
import org.fthp.replication.collective.DataCollectives;
import org.fthp.replication.collective.Region;
import org.fthp.replication.collective.Roots;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;

/**
 * Data-movement collectives in the program's terms: checks the arguments and
 * turns buffers, counts, displacements and datatypes into the engine's
 * regions and byte sizes, in the order the checks have always run, then
 * starts the engine's collective ({@code collective.DataCollectives}).
 */
final class Collectives {

    private Collectives() {}

    static Object await(NativeOp op) {
        Engine.get().awaitCollective(op);
        return null;
    }

    static OpContext ops() {
        return Engine.get().ops();
    }

    /** {@code count} items of {@code type} in {@code buf}, from item {@code itemOffset} (in extents). */
    static Region region(Object buf, long itemOffset, int count, Datatype type) throws MPIException {
        TypeLayout layout = Args.type(type);
        Args.count(count);
        long start = UserBuffer.START + itemOffset * layout.extent();
        return new Region(Args.buffer(buf, start, count, type), start, count, layout);
    }

    /** {@code count} items of {@code type} in {@code buf}, from byte {@code startByte}. */
    private static Region byteRegion(Object buf, long startByte, int count, Datatype type) throws MPIException {
        TypeLayout layout = Args.type(type);
        Args.count(count);
        long start = UserBuffer.START + startByte;
        return new Region(Args.buffer(buf, start, count, type), start, count, layout);
    }

    /**
     * The per-peer blocks of a v-collective: each peer's region of the
     * buffer, and its bytes in packed staging at displacement × type size,
     * so displacements keep their meaning.
     */
    static Blocks blocks(Object buf, int[] counts, int[] displs, Datatype type, int peers) throws MPIException {
        Args.counts(counts, displs, peers);
        long size = Args.type(type).size();
        Region[] regions = new Region[peers];
        int[] byteCounts = new int[peers];
        int[] byteDispls = new int[peers];
        for (int i = 0; i < peers; i++) {
            if (displs[i] < 0) {
                throw Errors.error(MPI.ERR_ARG, "negative displacement " + displs[i]);
            }
            regions[i] = region(buf, displs[i], counts[i], type);
            byteCounts[i] = Args.bytes(counts[i] * size);
            byteDispls[i] = Args.bytes(displs[i] * size);
        }
        return Blocks.at(regions, byteCounts, byteDispls);
    }

    static void checkRoot(CommStructure s, int root) throws MPIException {
        if (s.isInter()) {
            if (root != MPI.ROOT && root != MPI.PROC_NULL) {
                Args.root(root, s.remoteSize());
            }
        } else {
            Args.root(root, s.size());
        }
    }

    static NativeOp barrier(CommStructure s) {
        return DataCollectives.barrier(ops(), s);
    }

    static NativeOp bcast(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        CommStructure s = comm.live();
        checkRoot(s, root);
        Region r = region(buf, 0, count, type);
        return DataCollectives.bcast(ops(), s, root, r, Args.bytes(r.bytes()));
    }

    static NativeOp gather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                           int recvcount, Datatype recvtype, int root, boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        checkRoot(s, root);
        int peers = s.peers();
        boolean isRoot = Roots.isRoot(s, root);
        boolean sends = Roots.contributes(s, root);
        Region all = isRoot ? region(recvbuf, 0, recvcount * peers, recvtype) : null;
        Region mine = !sends ? null : inPlace && isRoot
                ? region(recvbuf, (long) s.rank() * recvcount, recvcount, recvtype)
                : region(sendbuf, 0, sendcount, sendtype);
        int sbytes = mine == null ? 0 : Args.bytes(mine.bytes());
        int rblock = isRoot ? Args.bytes(recvcount * all.type().size()) : 0;
        return DataCollectives.gather(ops(), s, root, mine, sbytes, all, rblock);
    }

    static NativeOp gatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int[] recvcounts, int[] displs, Datatype recvtype, int root, boolean inPlace)
            throws MPIException {
        CommStructure s = comm.live();
        checkRoot(s, root);
        int peers = s.peers();
        boolean isRoot = Roots.isRoot(s, root);
        boolean sends = Roots.contributes(s, root);
        Blocks v = isRoot ? blocks(recvbuf, recvcounts, displs, recvtype, peers) : Blocks.none(peers);
        Region mine = !sends ? null : inPlace && isRoot ? v.regions()[s.rank()]
                : region(sendbuf, 0, sendcount, sendtype);
        int sbytes = mine == null ? 0 : Args.bytes(mine.bytes());
        return DataCollectives.gatherv(ops(), s, root, mine, sbytes, v);
    }

    static NativeOp scatter(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int recvcount, Datatype recvtype, int root, boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        checkRoot(s, root);
        int peers = s.peers();
        boolean isRoot = Roots.isRoot(s, root);
        boolean receives = Roots.contributes(s, root) && !(inPlace && isRoot);
        Region all = isRoot ? region(sendbuf, 0, sendcount * peers, sendtype) : null;
        int sblock = isRoot ? Args.bytes(sendcount * all.type().size()) : 0;
        Region mine = receives ? region(recvbuf, 0, recvcount, recvtype) : null;
        int rbytes = mine != null ? Args.bytes(mine.bytes()) : (inPlace && isRoot && !s.isInter() ? sblock : 0);
        return DataCollectives.scatter(ops(), s, root, all, sblock, mine, rbytes);
    }

    static NativeOp scatterv(Comm comm, Object sendbuf, int[] sendcounts, int[] displs, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace)
            throws MPIException {
        CommStructure s = comm.live();
        checkRoot(s, root);
        int peers = s.peers();
        boolean isRoot = Roots.isRoot(s, root);
        boolean receives = Roots.contributes(s, root) && !(inPlace && isRoot);
        Blocks v = isRoot ? blocks(sendbuf, sendcounts, displs, sendtype, peers) : Blocks.none(peers);
        Region mine = receives ? region(recvbuf, 0, recvcount, recvtype) : null;
        int rbytes = mine != null ? Args.bytes(mine.bytes()) : (isRoot && !s.isInter() ? v.byteCounts()[s.rank()] : 0);
        return DataCollectives.scatterv(ops(), s, root, v, mine, rbytes);
    }

    static NativeOp allGather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                              int recvcount, Datatype recvtype, boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        int peers = s.peers();
        Region all = region(recvbuf, 0, recvcount * peers, recvtype);
        Region mine = inPlace ? region(recvbuf, (long) s.rank() * recvcount, recvcount, recvtype)
                : region(sendbuf, 0, sendcount, sendtype);
        int sbytes = Args.bytes(mine.bytes());
        int rblock = Args.bytes(recvcount * all.type().size());
        return DataCollectives.allGather(ops(), s, mine, sbytes, all, rblock);
    }

    static NativeOp allGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                               int[] recvcounts, int[] displs, Datatype recvtype, boolean inPlace)
            throws MPIException {
        CommStructure s = comm.live();
        int peers = s.peers();
        Blocks v = blocks(recvbuf, recvcounts, displs, recvtype, peers);
        Region mine = inPlace ? v.regions()[s.rank()] : region(sendbuf, 0, sendcount, sendtype);
        int sbytes = Args.bytes(mine.bytes());
        return DataCollectives.allGatherv(ops(), s, mine, sbytes, v);
    }

    static NativeOp allToAll(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                             int recvcount, Datatype recvtype) throws MPIException {
        CommStructure s = comm.live();
        int peers = s.peers();
        Region in = region(sendbuf, 0, sendcount * peers, sendtype);
        Region out = region(recvbuf, 0, recvcount * peers, recvtype);
        int sblock = Args.bytes(sendcount * in.type().size());
        int rblock = Args.bytes(recvcount * out.type().size());
        return DataCollectives.allToAll(ops(), s, in, sblock, out, rblock);
    }

    static NativeOp allToAllv(Comm comm, Object sendbuf, int[] sendcounts, int[] sdispls, Datatype sendtype,
                              Object recvbuf, int[] recvcounts, int[] rdispls, Datatype recvtype) throws MPIException {
        int peers = comm.peers();
        Args.counts(sendcounts, sdispls, peers);
        Args.counts(recvcounts, rdispls, peers);
        Datatype[] st = new Datatype[peers];
        Datatype[] rt = new Datatype[peers];
        java.util.Arrays.fill(st, sendtype);
        java.util.Arrays.fill(rt, recvtype);
        long sext = Args.type(sendtype).extent();
        long rext = Args.type(recvtype).extent();
        long[] sd = new long[peers];
        long[] rd = new long[peers];
        for (int i = 0; i < peers; i++) {
            sd[i] = sdispls[i] * sext;
            rd[i] = rdispls[i] * rext;
        }
        return allToAllBytes(comm, sendbuf, sendcounts, sd, st, recvbuf, recvcounts, rd, rt);
    }

    static NativeOp allToAllw(Comm comm, Object sendbuf, int[] sendcounts, int[] sdispls, Datatype[] sendtypes,
                              Object recvbuf, int[] recvcounts, int[] rdispls, Datatype[] recvtypes)
            throws MPIException {
        int peers = comm.peers();
        Args.counts(sendcounts, sdispls, peers);
        Args.counts(recvcounts, rdispls, peers);
        if (sendtypes == null || recvtypes == null || sendtypes.length < peers || recvtypes.length < peers) {
            throw Errors.error(MPI.ERR_TYPE, "alltoallw needs a datatype per rank");
        }
        long[] sd = new long[peers];
        long[] rd = new long[peers];
        for (int i = 0; i < peers; i++) {
            sd[i] = sdispls[i];
            rd[i] = rdispls[i];
        }
        return allToAllBytes(comm, sendbuf, sendcounts, sd, sendtypes, recvbuf, recvcounts, rd, recvtypes);
    }

    /**
     * All-to-all with per-peer counts, byte displacements in the program's
     * buffers and types; each peer's block is packed after the previous one.
     */
    private static NativeOp allToAllBytes(Comm comm, Object sendbuf, int[] sendcounts, long[] sdispBytes,
                                          Datatype[] sendtypes, Object recvbuf, int[] recvcounts, long[] rdispBytes,
                                          Datatype[] recvtypes) throws MPIException {
        CommStructure s = comm.live();
        int peers = s.peers();
        Region[] in = new Region[peers];
        Region[] out = new Region[peers];
        int[] sc = new int[peers];
        int[] sdp = new int[peers];
        int[] rc = new int[peers];
        int[] rdp = new int[peers];
        long sTotal = 0;
        long rTotal = 0;
        for (int i = 0; i < peers; i++) {
            in[i] = byteRegion(sendbuf, sdispBytes[i], sendcounts[i], sendtypes[i]);
            out[i] = byteRegion(recvbuf, rdispBytes[i], recvcounts[i], recvtypes[i]);
            sc[i] = Args.bytes(in[i].bytes());
            sdp[i] = Args.bytes(sTotal);
            sTotal += sc[i];
            rc[i] = Args.bytes(out[i].bytes());
            rdp[i] = Args.bytes(rTotal);
            rTotal += rc[i];
        }
        return DataCollectives.allToAllv(ops(), s, Blocks.at(in, sc, sdp), Blocks.at(out, rc, rdp));
    }
}

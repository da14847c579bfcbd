package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.Staged;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;

/**
 * Data-movement collectives: inputs are packed into staging memory, the
 * native nonblocking collective moves bytes, and outputs are unpacked when it
 * completes. Packed blocks sit at {@code displacement × type size}, so
 * v-variants keep their displacements and derived types need no native type.
 */
final class Collectives {

    private Collectives() {}

    static Object await(NativeOp op) {
        Engine.get().await(op);
        return null;
    }

    /** A user buffer region: {@code count} items of {@code type} from byte {@code start}. */
    record Region(UserBuffer buf, long start, int count, TypeLayout type) {
        long bytes() { return count * type.size(); }

        void packInto(MemorySegment seg, long at) {
            if (buf != null) {
                Packer.pack(buf, start, count, type, seg, at);
            }
        }

        void unpackFrom(MemorySegment seg, long at) {
            if (buf != null) {
                Packer.unpack(seg, at, buf, start, count, type);
            }
        }
    }

    /**
     * The per-peer blocks of a v-collective: each peer's region of the user
     * buffer, and where its bytes sit in packed staging (at displacement ×
     * type size, so displacements keep their meaning). Without blocks (a
     * non-root) the counts are zero and nothing is staged.
     */
    record VLayout(Region[] blocks, int[] byteCounts, int[] byteDispls, long totalBytes) {

        static VLayout none(int peers) {
            return new VLayout(null, new int[peers], new int[peers], 0);
        }

        static VLayout of(Object buf, int[] counts, int[] displs, Datatype type, int peers) throws MPIException {
            Args.counts(counts, displs, peers);
            long size = Args.type(type).size();
            Region[] blocks = new Region[peers];
            int[] byteCounts = new int[peers];
            int[] byteDispls = new int[peers];
            long total = 0;
            for (int i = 0; i < peers; i++) {
                if (displs[i] < 0) {
                    throw Errors.error(MPI.ERR_ARG, "negative displacement " + displs[i]);
                }
                blocks[i] = region(buf, displs[i], counts[i], type);
                byteCounts[i] = toInt(counts[i] * size);
                byteDispls[i] = toInt(displs[i] * size);
                total = Math.max(total, (long) byteDispls[i] + byteCounts[i]);
            }
            return new VLayout(blocks, byteCounts, byteDispls, total);
        }

        void packInto(MemorySegment seg) {
            if (blocks != null) {
                for (int i = 0; i < blocks.length; i++) {
                    blocks[i].packInto(seg, byteDispls[i]);
                }
            }
        }

        void unpackFrom(MemorySegment seg) {
            if (blocks != null) {
                for (int i = 0; i < blocks.length; i++) {
                    blocks[i].unpackFrom(seg, byteDispls[i]);
                }
            }
        }
    }

    static Region region(Object buf, long itemOffset, int count, Datatype type) throws MPIException {
        TypeLayout layout = Args.type(type);
        Args.count(count);
        long start = UserBuffer.START + itemOffset * layout.extent();
        return new Region(Args.buffer(buf, start, count, type), start, count, layout);
    }

    static Staged ints(CollectiveOp op, int[] values) {
        Staged seg = op.stage(4L * Math.max(1, values.length));
        MemorySegment.copy(values, 0, seg.seg(), ValueLayout.JAVA_INT, 0, values.length);
        return seg;
    }

    static int toInt(long bytes) throws MPIException {
        if (bytes > Integer.MAX_VALUE) {
            throw Errors.error(MPI.ERR_COUNT, "message of " + bytes + " bytes is larger than 2 GiB");
        }
        return (int) bytes;
    }

    /** Whether this process is the root of a rooted collective (intercommunicators: MPI.ROOT). */
    static boolean isRoot(CommStructure s, int root) {
        return s.isInter() ? root == MPI.ROOT : s.rank() == root;
    }

    /** Whether this process contributes data to a rooted collective. */
    static boolean contributes(CommStructure s, int root) {
        return s.isInter() ? root != MPI.ROOT && root != MPI.PROC_NULL : true;
    }

    static void checkRoot(Comm comm, int root) throws MPIException {
        CommStructure s = comm.live();
        if (s.isInter()) {
            if (root != MPI.ROOT && root != MPI.PROC_NULL) {
                Args.root(root, s.remoteSize());
            }
        } else {
            Args.root(root, s.size());
        }
    }

    static NativeOp barrier(CommStructure s) {
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        return op.start(s, null, (cmp, req) -> Empi.ibarrier(cmp, req), null);
    }

    static NativeOp bcast(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        CommStructure s = comm.live();
        checkRoot(comm, root);
        boolean isRoot = isRoot(s, root);
        boolean receives = s.isInter() ? contributes(s, root) : !isRoot;
        Region r = region(buf, 0, count, type);
        int bytes = toInt(r.bytes());
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Staged seg = op.stage(bytes);
        if (isRoot) {
            r.packInto(seg.seg(), 0);
        }
        return op.start(s, seg, (cmp, req) -> Empi.ibcast(seg.seg(), bytes, Empi.BYTE, root, cmp, req),
                () -> { if (receives) r.unpackFrom(seg.seg(), 0); });
    }

    static NativeOp gather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                           int recvcount, Datatype recvtype, int root, boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        checkRoot(comm, root);
        int peers = comm.peers();
        boolean isRoot = isRoot(s, root);
        boolean sends = contributes(s, root);
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Region all = isRoot ? region(recvbuf, 0, recvcount * peers, recvtype) : null;
        Region mine = !sends ? null : inPlace && isRoot
                ? region(recvbuf, (long) s.rank() * recvcount, recvcount, recvtype)
                : region(sendbuf, 0, sendcount, sendtype);
        int sbytes = mine == null ? 0 : toInt(mine.bytes());
        int rblock = isRoot ? toInt(recvcount * all.type().size()) : 0;
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage((long) rblock * peers);
        if (mine != null) {
            mine.packInto(sseg.seg(), 0);
        }
        return op.start(s, rseg, (cmp, req) -> Empi.igather(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(), rblock,
                Empi.BYTE, root, cmp, req),
                () -> { if (isRoot) all.unpackFrom(rseg.seg(), 0); });
    }

    static NativeOp gatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int[] recvcounts, int[] displs, Datatype recvtype, int root, boolean inPlace)
            throws MPIException {
        CommStructure s = comm.live();
        checkRoot(comm, root);
        int peers = comm.peers();
        boolean isRoot = isRoot(s, root);
        boolean sends = contributes(s, root);
        VLayout v = isRoot ? VLayout.of(recvbuf, recvcounts, displs, recvtype, peers) : VLayout.none(peers);
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Region mine = !sends ? null : inPlace && isRoot ? v.blocks()[s.rank()] : region(sendbuf, 0, sendcount,
                sendtype);
        int sbytes = mine == null ? 0 : toInt(mine.bytes());
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage(v.totalBytes());
        Staged cseg = ints(op, v.byteCounts());
        Staged dseg = ints(op, v.byteDispls());
        if (mine != null) {
            mine.packInto(sseg.seg(), 0);
        }
        return op.start(s, rseg, (cmp, req) -> Empi.igatherv(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(), cseg.seg(),
                dseg.seg(), Empi.BYTE, root, cmp, req),
                () -> v.unpackFrom(rseg.seg()));
    }

    static NativeOp scatter(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int recvcount, Datatype recvtype, int root, boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        checkRoot(comm, root);
        int peers = comm.peers();
        boolean isRoot = isRoot(s, root);
        boolean receives = contributes(s, root) && !(inPlace && isRoot);
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Region all = isRoot ? region(sendbuf, 0, sendcount * peers, sendtype) : null;
        int sblock = isRoot ? toInt(sendcount * all.type().size()) : 0;
        Region mine = receives ? region(recvbuf, 0, recvcount, recvtype) : null;
        int rbytes = mine != null ? toInt(mine.bytes()) : (inPlace && isRoot && !s.isInter() ? sblock : 0);
        Staged sseg = op.stage((long) sblock * peers);
        Staged rseg = op.stage(rbytes);
        if (isRoot) {
            all.packInto(sseg.seg(), 0);
        }
        return op.start(s, rseg, (cmp, req) -> Empi.iscatter(sseg.seg(), sblock, Empi.BYTE, rseg.seg(), rbytes,
                Empi.BYTE, root, cmp, req),
                () -> { if (mine != null) mine.unpackFrom(rseg.seg(), 0); });
    }

    static NativeOp scatterv(Comm comm, Object sendbuf, int[] sendcounts, int[] displs, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace)
            throws MPIException {
        CommStructure s = comm.live();
        checkRoot(comm, root);
        int peers = comm.peers();
        boolean isRoot = isRoot(s, root);
        boolean receives = contributes(s, root) && !(inPlace && isRoot);
        VLayout v = isRoot ? VLayout.of(sendbuf, sendcounts, displs, sendtype, peers) : VLayout.none(peers);
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Region mine = receives ? region(recvbuf, 0, recvcount, recvtype) : null;
        int rbytes = mine != null ? toInt(mine.bytes()) : (isRoot && !s.isInter() ? v.byteCounts()[s.rank()] : 0);
        Staged sseg = op.stage(v.totalBytes());
        Staged rseg = op.stage(rbytes);
        Staged cseg = ints(op, v.byteCounts());
        Staged dseg = ints(op, v.byteDispls());
        v.packInto(sseg.seg());
        return op.start(s, rseg, (cmp, req) -> Empi.iscatterv(sseg.seg(), cseg.seg(), dseg.seg(), Empi.BYTE,
                rseg.seg(), rbytes, Empi.BYTE, root, cmp, req),
                () -> { if (mine != null) mine.unpackFrom(rseg.seg(), 0); });
    }

    static NativeOp allGather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                              int recvcount, Datatype recvtype, boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        int peers = comm.peers();
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Region all = region(recvbuf, 0, recvcount * peers, recvtype);
        Region mine = inPlace ? region(recvbuf, (long) s.rank() * recvcount, recvcount, recvtype)
                : region(sendbuf, 0, sendcount, sendtype);
        int sbytes = toInt(mine.bytes());
        int rblock = toInt(recvcount * all.type().size());
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage((long) rblock * peers);
        mine.packInto(sseg.seg(), 0);
        return op.start(s, rseg, (cmp, req) -> Empi.iallgather(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(), rblock,
                Empi.BYTE, cmp, req),
                () -> all.unpackFrom(rseg.seg(), 0));
    }

    static NativeOp allGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                               int[] recvcounts, int[] displs, Datatype recvtype, boolean inPlace)
            throws MPIException {
        CommStructure s = comm.live();
        int peers = comm.peers();
        VLayout v = VLayout.of(recvbuf, recvcounts, displs, recvtype, peers);
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Region mine = inPlace ? v.blocks()[s.rank()] : region(sendbuf, 0, sendcount, sendtype);
        int sbytes = toInt(mine.bytes());
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage(v.totalBytes());
        Staged cseg = ints(op, v.byteCounts());
        Staged dseg = ints(op, v.byteDispls());
        mine.packInto(sseg.seg(), 0);
        return op.start(s, rseg, (cmp, req) -> Empi.iallgatherv(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(),
                cseg.seg(), dseg.seg(), Empi.BYTE, cmp, req),
                () -> v.unpackFrom(rseg.seg()));
    }

    static NativeOp allToAll(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                             int recvcount, Datatype recvtype) throws MPIException {
        CommStructure s = comm.live();
        int peers = comm.peers();
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
        Region in = region(sendbuf, 0, sendcount * peers, sendtype);
        Region out = region(recvbuf, 0, recvcount * peers, recvtype);
        int sblock = toInt(sendcount * in.type().size());
        int rblock = toInt(recvcount * out.type().size());
        Staged sseg = op.stage((long) sblock * peers);
        Staged rseg = op.stage((long) rblock * peers);
        in.packInto(sseg.seg(), 0);
        return op.start(s, rseg, (cmp, req) -> Empi.ialltoall(sseg.seg(), sblock, Empi.BYTE, rseg.seg(), rblock,
                Empi.BYTE, cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
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

    /** All-to-all with per-peer counts, byte displacements in the user buffers and types. */
    private static NativeOp allToAllBytes(Comm comm, Object sendbuf, int[] sendcounts, long[] sdispBytes,
                                          Datatype[] sendtypes, Object recvbuf, int[] recvcounts, long[] rdispBytes,
                                          Datatype[] recvtypes) throws MPIException {
        CommStructure s = comm.live();
        int peers = comm.peers();
        CollectiveOp op = new CollectiveOp(Engine.get().ops());
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
            sc[i] = toInt(in[i].bytes());
            sdp[i] = toInt(sTotal);
            sTotal += sc[i];
            rc[i] = toInt(out[i].bytes());
            rdp[i] = toInt(rTotal);
            rTotal += rc[i];
        }
        Staged sseg = op.stage(sTotal);
        Staged rseg = op.stage(rTotal);
        for (int i = 0; i < peers; i++) {
            in[i].packInto(sseg.seg(), sdp[i]);
        }
        Staged scs = ints(op, sc);
        Staged sds = ints(op, sdp);
        Staged rcs = ints(op, rc);
        Staged rds = ints(op, rdp);
        return op.start(s, rseg, (cmp, req) -> Empi.ialltoallv(sseg.seg(), scs.seg(), sds.seg(), Empi.BYTE,
                rseg.seg(), rcs.seg(), rds.seg(), Empi.BYTE, cmp, req),
                () -> {
                    for (int i = 0; i < peers; i++) {
                        out[i].unpackFrom(rseg.seg(), rdp[i]);
                    }
                });
    }

    private static Region byteRegion(Object buf, long startByte, int count, Datatype type) throws MPIException {
        TypeLayout layout = Args.type(type);
        Args.count(count);
        long start = UserBuffer.START + startByte;
        return new Region(Args.buffer(buf, start, count, type), start, count, layout);
    }
}

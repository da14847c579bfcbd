package mpi;

import java.lang.foreign.MemorySegment;

import mpi.Collectives.Region;
import org.fthp.empi.Empi;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.RecursiveDoublingAllreduce;
import org.fthp.replication.ops.Staged;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.staging.HeapCopy;
import org.fthp.replication.structure.CommStructure;

/**
 * Reductions. Predefined operations run in the native library on packed base
 * elements. User operations gather every contribution and combine them in
 * rank order in Java ({@code x0 op (x1 op (... op xn-1))}), which is correct
 * for non-commutative operations and gives the same bits on every process.
 */
final class Reductions {

    private Reductions() {}

    /**
     * Up to this size an allreduce runs as recursive doubling over the
     * internal channel: a few small exchanges cost less than a native
     * nonblocking collective's schedule, and the result is the same bits on
     * every rank whatever the operation.
     */
    static final int SMALL_ALLREDUCE_BYTES = Integer.getInteger("fthp.allreduce.smallBytes", 16 * 1024);

    private static void combine(Op op, MemorySegment in, MemorySegment inout, int count, Datatype type) {
        try {
            op.applyLocal(in, inout, count, type);
        } catch (MPIException e) {
            throw new UncheckedMpi(e);
        }
    }

    private static int elements(int count, Datatype type) throws MPIException {
        return Collectives.toInt((long) count * Op.baseItems(type));
    }

    static NativeOp reduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root,
                           boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        Collectives.checkRoot(comm, root);
        op.checked();
        boolean isRoot = Collectives.isRoot(s, root);
        boolean sends = Collectives.contributes(s, root);
        Region out = isRoot ? Collectives.region(recvbuf, 0, count, type) : null;
        Region in = !sends ? null : inPlace && isRoot ? out : Collectives.region(sendbuf, 0, count, type);
        int bytes = Collectives.toInt(count * Args.type(type).size());
        if (op.isUser()) {
            return combineGathered(comm, in, bytes, isRoot, (all, peers) -> {
                MemorySegment acc = foldInRankOrder(all, 0, peers, bytes, count, type, op);
                out.unpackFrom(acc, 0);
            }, root);
        }
        CollectiveOp cop = new CollectiveOp(Engine.get().ops());
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(bytes);
        if (in != null) {
            in.packInto(sseg.seg(), 0);
        }
        int n = elements(count, type);
        return cop.start(s, rseg, (cmp, req) -> Empi.ireduce(sseg.seg(), rseg.seg(), n, type.nativeBase(),
                op.nativeOp(), root, cmp, req),
                () -> { if (isRoot) out.unpackFrom(rseg.seg(), 0); });
    }

    static NativeOp allReduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                              boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        op.checked();
        Region out = Collectives.region(recvbuf, 0, count, type);
        Region in = inPlace ? out : Collectives.region(sendbuf, 0, count, type);
        int bytes = Collectives.toInt(count * Args.type(type).size());
        if (!s.isInter() && bytes <= SMALL_ALLREDUCE_BYTES) {
            long sequence = Engine.get().ops().collectiveLogs().of(s.commId()).begin();
            RecursiveDoublingAllreduce.Combiner combiner = (a, b) -> combine(op, a, b, count, type);
            if (s.follows()) {
                // the twin reduces by recursive doubling and forwards only the result; the replica
                // keeps its own contribution in case it is promoted before the result comes
                CollectiveOp cop = new CollectiveOp(Engine.get().ops());
                Staged rseg = cop.stage(bytes);
                Staged mine = cop.stage(bytes);
                in.packInto(mine.seg(), 0);
                return cop.asComputational((now, wantOutput) -> RecursiveDoublingAllreduce.promoted(Engine.get().ops(),
                                now, bytes, sequence, combiner, HeapCopy.of(mine.seg(), bytes),
                                wantOutput ? rd -> out.unpackFrom(rd.result(), 0) : null))
                        .start(s, sequence, rseg, (cmp, req) -> { }, () -> out.unpackFrom(rseg.seg(), 0));
            }
            return new RecursiveDoublingAllreduce(Engine.get().ops(), s, bytes, sequence, combiner,
                    rd -> in.packInto(rd.input(), 0),
                    rd -> out.unpackFrom(rd.result(), 0));
        }
        if (op.isUser()) {
            return combineAll(comm, in, bytes, (all, peers) -> {
                out.unpackFrom(foldInRankOrder(all, 0, peers, bytes, count, type, op), 0);
            });
        }
        CollectiveOp cop = new CollectiveOp(Engine.get().ops());
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(bytes);
        in.packInto(sseg.seg(), 0);
        int n = elements(count, type);
        return cop.start(s, rseg, (cmp, req) -> Empi.iallreduce(sseg.seg(), rseg.seg(), n, type.nativeBase(),
                op.nativeOp(), cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
    }

    static NativeOp reduceScatter(Comm comm, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op,
                                  boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        op.checked();
        int size = s.size();
        Args.counts(recvcounts, null, size);
        long total = 0;
        long before = 0;
        for (int i = 0; i < size; i++) {
            if (i < s.rank()) {
                before += recvcounts[i];
            }
            total += recvcounts[i];
        }
        int mineCount = recvcounts[s.rank()];
        Region in = Collectives.region(inPlace ? recvbuf : sendbuf, 0, Collectives.toInt(total), type);
        Region out = Collectives.region(recvbuf, 0, mineCount, type);
        long itemBytes = Args.type(type).size();
        int bytes = Collectives.toInt(total * itemBytes);
        long skip = before * itemBytes;
        if (op.isUser()) {
            int totalItems = (int) total;
            return combineAll(comm, in, bytes, (all, peers) -> {
                MemorySegment acc = foldInRankOrder(all, 0, peers, bytes, totalItems, type, op);
                out.unpackFrom(acc, skip);
            });
        }
        CollectiveOp cop = new CollectiveOp(Engine.get().ops());
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(mineCount * itemBytes);
        in.packInto(sseg.seg(), 0);
        int per = Op.baseItems(type);
        int[] counts = new int[size];
        for (int i = 0; i < size; i++) {
            counts[i] = Collectives.toInt((long) recvcounts[i] * per);
        }
        Staged cseg = Collectives.ints(cop, counts);
        return cop.start(s, rseg, (cmp, req) -> Empi.ireduceScatter(sseg.seg(), rseg.seg(), cseg.seg(),
                type.nativeBase(), op.nativeOp(), cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
    }

    static NativeOp reduceScatterBlock(Comm comm, Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op,
                                       boolean inPlace) throws MPIException {
        int[] counts = new int[comm.live().size()];
        java.util.Arrays.fill(counts, recvcount);
        return reduceScatter(comm, sendbuf, recvbuf, counts, type, op, inPlace);
    }

    /** Inclusive ({@code exclusive == false}) or exclusive prefix reduction. */
    static NativeOp scan(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                         boolean inPlace, boolean exclusive) throws MPIException {
        CommStructure s = comm.live();
        op.checked();
        Region out = Collectives.region(recvbuf, 0, count, type);
        Region in = inPlace ? out : Collectives.region(sendbuf, 0, count, type);
        int bytes = Collectives.toInt(count * Args.type(type).size());
        int rank = s.rank();
        if (op.isUser()) {
            return combineAll(comm, in, bytes, (all, peers) -> {
                int last = exclusive ? rank - 1 : rank;
                if (last >= 0) {
                    out.unpackFrom(foldInRankOrder(all, 0, last + 1, bytes, count, type, op), 0);
                }
            });
        }
        CollectiveOp cop = new CollectiveOp(Engine.get().ops());
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(bytes);
        in.packInto(sseg.seg(), 0);
        int n = elements(count, type);
        if (exclusive) {
            return cop.start(s, rseg, (cmp, req) -> Empi.iexscan(sseg.seg(), rseg.seg(), n, type.nativeBase(),
                    op.nativeOp(), cmp, req),
                    () -> { if (rank > 0) out.unpackFrom(rseg.seg(), 0); });
        }
        return cop.start(s, rseg, (cmp, req) -> Empi.iscan(sseg.seg(), rseg.seg(), n, type.nativeBase(),
                op.nativeOp(), cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
    }

    static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        op.checked();
        Region in = Collectives.region(inBuf, 0, count, type);
        Region inout = Collectives.region(inOutBuf, 0, count, type);
        int bytes = Collectives.toInt(in.bytes());
        CollectiveOp scratch = new CollectiveOp(Engine.get().ops());
        try {
            Staged a = scratch.stage(bytes);
            Staged b = scratch.stage(bytes);
            in.packInto(a.seg(), 0);
            inout.packInto(b.seg(), 0);
            op.applyLocal(a.seg().asSlice(0, bytes), b.seg().asSlice(0, bytes), count, type);
            inout.unpackFrom(b.seg(), 0);
        } finally {
            scratch.completeNow(null);
        }
    }

    @FunctionalInterface
    interface Combine {
        void accept(MemorySegment all, int peers) throws MPIException;
    }

    /** Allgathers every process's packed input, then runs {@code combine} on them once they are all here. */
    private static NativeOp combineAll(Comm comm, Region in, int bytes, Combine combine) throws MPIException {
        CommStructure s = comm.live();
        int peers = comm.peers();
        CollectiveOp cop = new CollectiveOp(Engine.get().ops());
        Staged sseg = cop.stage(bytes);
        Staged all = cop.stage((long) bytes * peers);
        in.packInto(sseg.seg(), 0);
        return cop.start(s, all, (cmp, req) -> Empi.iallgather(sseg.seg(), bytes, Empi.BYTE, all.seg(), bytes,
                Empi.BYTE, cmp, req),
                () -> run(combine, all.seg(), peers));
    }

    /** Gathers every process's packed input at the root, which runs {@code combine}. */
    private static NativeOp combineGathered(Comm comm, Region in, int bytes, boolean isRoot, Combine combine, int root)
            throws MPIException {
        CommStructure s = comm.live();
        int peers = comm.peers();
        CollectiveOp cop = new CollectiveOp(Engine.get().ops());
        int sbytes = in == null ? 0 : bytes;
        Staged sseg = cop.stage(sbytes);
        Staged all = cop.stage(isRoot ? (long) bytes * peers : 0);
        if (in != null) {
            in.packInto(sseg.seg(), 0);
        }
        int rblock = isRoot ? bytes : 0;
        return cop.start(s, all, (cmp, req) -> Empi.igather(sseg.seg(), sbytes, Empi.BYTE, all.seg(), rblock,
                Empi.BYTE, root, cmp, req),
                () -> { if (isRoot) run(combine, all.seg(), peers); });
    }

    private static void run(Combine combine, MemorySegment all, int peers) {
        try {
            combine.accept(all, peers);
        } catch (MPIException e) {
            throw new UncheckedMpi(e);
        }
    }

    /** {@code x[first] op (x[first+1] op (... op x[end-1]))}, each x a block of {@code bytes}. */
    private static MemorySegment foldInRankOrder(MemorySegment all, int first, int end, int bytes, int count,
                                                 Datatype type, Op op) throws MPIException {
        // off-heap, so the user function sees the direct buffers Open MPI's binding gives it
        MemorySegment acc = java.lang.foreign.Arena.ofAuto().allocate(Math.max(bytes, 1)).asSlice(0, bytes);
        MemorySegment.copy(all, (long) (end - 1) * bytes, acc, 0, bytes);
        for (int i = end - 2; i >= first; i--) {
            op.applyLocal(all.asSlice((long) i * bytes, bytes), acc, count, type);
        }
        return acc;
    }
}

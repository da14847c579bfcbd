package org.fthp.replication.collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.fthp.empi.Empi;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.ops.DoublingOutcome;
import org.fthp.replication.ops.FailureNote;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.RecursiveDoublingAllreduce;
import org.fthp.replication.ops.Staged;
import org.fthp.replication.staging.HeapCopy;
import org.fthp.replication.structure.CommStructure;

/**
 * Reductions. Predefined operations run in the native library on packed base
 * elements. User operations gather every contribution and combine them in
 * rank order in Java ({@code x0 op (x1 op (... op xn-1))}), which is correct
 * for non-commutative operations and gives the same bits on every process.
 *
 * <p>Takes regions and byte sizes the facade has already checked.
 */
public final class Reductions {

    /**
     * Up to this size an allreduce runs as recursive doubling over the
     * internal channel: a few small exchanges cost less than a native
     * nonblocking collective's schedule, and the result is the same bits on
     * every rank whatever the operation.
     */
    public static final int SMALL_ALLREDUCE_BYTES = Integer.getInteger("fthp.allreduce.smallBytes", 16 * 1024);

    private Reductions() {}

    /** What to do with every process's packed contribution once they are all here. */
    @FunctionalInterface
    interface Gathered {
        void accept(MemorySegment all, int peers);
    }

    /**
     * @param in    this process's contribution (null: an intercommunicator's root group gives none)
     * @param out   the root's result; null elsewhere
     * @param bytes the packed size of {@code count} items
     */
    public static NativeOp reduce(OpContext ctx, CommStructure s, int root, Region in, Region out, int bytes,
                                  int count, Reducer reducer) {
        boolean isRoot = Roots.isRoot(s, root);
        if (!reducer.inLibrary()) {
            return combineGathered(ctx, s, in, bytes, isRoot, (all, peers) -> {
                MemorySegment acc = foldInRankOrder(all, 0, peers, bytes, count, reducer.combine());
                out.unpackFrom(acc, 0);
            }, root);
        }
        CollectiveOp cop = new CollectiveOp(ctx);
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(bytes);
        if (in != null) {
            in.packInto(sseg.seg(), 0);
        }
        int n = reducer.elements(count);
        return cop.start(s, rseg, (cmp, req) -> Empi.ireduce(sseg.seg(), rseg.seg(), n, reducer.nativeType(),
                reducer.nativeOp(), root, cmp, req),
                () -> { if (isRoot) out.unpackFrom(rseg.seg(), 0); });
    }

    public static NativeOp allReduce(OpContext ctx, CommStructure s, Region in, Region out, int bytes, int count,
                                     Reducer reducer) {
        if (!s.isInter() && bytes <= SMALL_ALLREDUCE_BYTES) {
            long sequence = ctx.collectiveLogs().of(s.commId()).begin();
            Combine combine = reducer.combine();
            RecursiveDoublingAllreduce.Combiner combiner = (a, b) -> combine.apply(a, b, count);
            if (s.follows()) {
                // the twin reduces by recursive doubling and forwards only the result; the replica
                // keeps its own contribution in case it is promoted before the result comes
                CollectiveOp cop = new CollectiveOp(ctx);
                // room for word of a failure: the twin's operation may have thrown (DoublingOutcome)
                Staged rseg = cop.stage(FailureNote.room(bytes));
                DoublingOutcome.clear(rseg.seg(), bytes);
                Staged mine = cop.stage(bytes);
                in.packInto(mine.seg(), 0);
                return cop.asComputational((now, wantOutput) -> RecursiveDoublingAllreduce.promoted(ctx,
                                now, bytes, sequence, combiner, HeapCopy.of(mine.seg(), bytes),
                                wantOutput ? rd -> out.unpackFrom(rd.result(), 0) : null))
                        .start(s, sequence, rseg, (cmp, req) -> { }, () -> {
                            MpiError failed = FailureNote.failure(rseg.seg(), bytes);
                            if (failed != null) {
                                throw failed;
                            }
                            out.unpackFrom(rseg.seg(), 0);
                        });
            }
            return new RecursiveDoublingAllreduce(ctx, s, bytes, sequence, combiner,
                    rd -> in.packInto(rd.input(), 0),
                    rd -> out.unpackFrom(rd.result(), 0));
        }
        if (!reducer.inLibrary()) {
            return combineAll(ctx, s, in, bytes, (all, peers) ->
                    out.unpackFrom(foldInRankOrder(all, 0, peers, bytes, count, reducer.combine()), 0));
        }
        CollectiveOp cop = new CollectiveOp(ctx);
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(bytes);
        in.packInto(sseg.seg(), 0);
        int n = reducer.elements(count);
        return cop.start(s, rseg, (cmp, req) -> Empi.iallreduce(sseg.seg(), rseg.seg(), n, reducer.nativeType(),
                reducer.nativeOp(), cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
    }

    /**
     * @param in         every process's whole input ({@code bytes} packed)
     * @param out        this process's block of the result, {@code recvcounts[rank]} items
     * @param recvcounts the items of each rank's block
     */
    public static NativeOp reduceScatter(OpContext ctx, CommStructure s, Region in, int bytes, Region out,
                                         int[] recvcounts, Reducer reducer) {
        int size = s.size();
        long before = 0;
        for (int i = 0; i < s.rank(); i++) {
            before += recvcounts[i];
        }
        long itemBytes = out.type().size();
        long skip = before * itemBytes;
        if (!reducer.inLibrary()) {
            int totalItems = in.count();
            return combineAll(ctx, s, in, bytes, (all, peers) -> {
                MemorySegment acc = foldInRankOrder(all, 0, peers, bytes, totalItems, reducer.combine());
                out.unpackFrom(acc, skip);
            });
        }
        CollectiveOp cop = new CollectiveOp(ctx);
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(out.count() * itemBytes);
        in.packInto(sseg.seg(), 0);
        int[] counts = new int[size];
        for (int i = 0; i < size; i++) {
            counts[i] = reducer.elements(recvcounts[i]);
        }
        Staged cseg = DataCollectives.ints(cop, counts);
        return cop.start(s, rseg, (cmp, req) -> Empi.ireduceScatter(sseg.seg(), rseg.seg(), cseg.seg(),
                reducer.nativeType(), reducer.nativeOp(), cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
    }

    /** Inclusive ({@code exclusive == false}) or exclusive prefix reduction. */
    public static NativeOp scan(OpContext ctx, CommStructure s, Region in, Region out, int bytes, int count,
                                Reducer reducer, boolean exclusive) {
        int rank = s.rank();
        if (!reducer.inLibrary()) {
            return combineAll(ctx, s, in, bytes, (all, peers) -> {
                int last = exclusive ? rank - 1 : rank;
                if (last >= 0) {
                    out.unpackFrom(foldInRankOrder(all, 0, last + 1, bytes, count, reducer.combine()), 0);
                }
            });
        }
        CollectiveOp cop = new CollectiveOp(ctx);
        Staged sseg = cop.stage(bytes);
        Staged rseg = cop.stage(bytes);
        in.packInto(sseg.seg(), 0);
        int n = reducer.elements(count);
        if (exclusive) {
            return cop.start(s, rseg, (cmp, req) -> Empi.iexscan(sseg.seg(), rseg.seg(), n, reducer.nativeType(),
                    reducer.nativeOp(), cmp, req),
                    () -> { if (rank > 0) out.unpackFrom(rseg.seg(), 0); });
        }
        return cop.start(s, rseg, (cmp, req) -> Empi.iscan(sseg.seg(), rseg.seg(), n, reducer.nativeType(),
                reducer.nativeOp(), cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
    }

    /** {@code inout = in op inout} on this process alone, through staging. */
    public static void reduceLocal(OpContext ctx, Region in, Region inout, int bytes, int count, Combine combine) {
        CollectiveOp scratch = new CollectiveOp(ctx);
        try {
            Staged a = scratch.stage(bytes);
            Staged b = scratch.stage(bytes);
            in.packInto(a.seg(), 0);
            inout.packInto(b.seg(), 0);
            combine.apply(a.seg().asSlice(0, bytes), b.seg().asSlice(0, bytes), count);
            inout.unpackFrom(b.seg(), 0);
        } finally {
            scratch.completeNow(null);
        }
    }

    /** Allgathers every process's packed input, then runs {@code combine} on them once they are all here. */
    private static NativeOp combineAll(OpContext ctx, CommStructure s, Region in, int bytes, Gathered combine) {
        int peers = s.peers();
        CollectiveOp cop = new CollectiveOp(ctx);
        Staged sseg = cop.stage(bytes);
        Staged all = cop.stage((long) bytes * peers);
        in.packInto(sseg.seg(), 0);
        return cop.start(s, all, (cmp, req) -> Empi.iallgather(sseg.seg(), bytes, Empi.BYTE, all.seg(), bytes,
                Empi.BYTE, cmp, req),
                () -> combine.accept(all.seg(), peers));
    }

    /** Gathers every process's packed input at the root, which runs {@code combine}. */
    private static NativeOp combineGathered(OpContext ctx, CommStructure s, Region in, int bytes, boolean isRoot,
                                            Gathered combine, int root) {
        int peers = s.peers();
        CollectiveOp cop = new CollectiveOp(ctx);
        int sbytes = in == null ? 0 : bytes;
        Staged sseg = cop.stage(sbytes);
        Staged all = cop.stage(isRoot ? (long) bytes * peers : 0);
        if (in != null) {
            in.packInto(sseg.seg(), 0);
        }
        int rblock = isRoot ? bytes : 0;
        return cop.start(s, all, (cmp, req) -> Empi.igather(sseg.seg(), sbytes, Empi.BYTE, all.seg(), rblock,
                Empi.BYTE, root, cmp, req),
                () -> { if (isRoot) combine.accept(all.seg(), peers); });
    }

    /** {@code x[first] op (x[first+1] op (... op x[end-1]))}, each x a block of {@code bytes}. */
    static MemorySegment foldInRankOrder(MemorySegment all, int first, int end, int bytes, int count,
                                         Combine combine) {
        // off-heap, so a user function sees the direct buffers Open MPI's binding gives it
        MemorySegment acc = Arena.ofAuto().allocate(Math.max(bytes, 1)).asSlice(0, bytes);
        MemorySegment.copy(all, (long) (end - 1) * bytes, acc, 0, bytes);
        for (int i = end - 2; i >= first; i--) {
            combine.apply(all.asSlice((long) i * bytes, bytes), acc, count);
        }
        return acc;
    }
}

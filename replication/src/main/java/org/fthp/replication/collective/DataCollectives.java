package org.fthp.replication.collective;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.Staged;
import org.fthp.replication.structure.CommStructure;

/**
 * Data-movement collectives: inputs are packed into staging memory, the
 * native nonblocking collective moves bytes, and outputs are unpacked when it
 * completes. Packed blocks sit at {@code displacement × type size}, so
 * v-variants keep their displacements and derived types need no native type.
 *
 * <p>Takes regions and byte sizes the facade has already checked (ranks,
 * counts, buffers, the 2 GiB limit of a native count): nothing here
 * validates again.
 */
public final class DataCollectives {

    private DataCollectives() {}

    /** Stages {@code values} for a native call that takes an {@code int} array. */
    static Staged ints(CollectiveOp op, int[] values) {
        Staged seg = op.stage(4L * Math.max(1, values.length));
        MemorySegment.copy(values, 0, seg.seg(), ValueLayout.JAVA_INT, 0, values.length);
        return seg;
    }

    public static NativeOp barrier(OpContext ctx, CommStructure s) {
        CollectiveOp op = new CollectiveOp(ctx);
        return op.start(s, null, (cmp, req) -> Empi.ibarrier(cmp, req), null);
    }

    /** {@code r} is the whole message, {@code bytes} its packed size. */
    public static NativeOp bcast(OpContext ctx, CommStructure s, int root, Region r, int bytes) {
        boolean isRoot = Roots.isRoot(s, root);
        boolean receives = s.isInter() ? Roots.contributes(s, root) : !isRoot;
        CollectiveOp op = new CollectiveOp(ctx);
        Staged seg = op.stage(bytes);
        if (isRoot) {
            r.packInto(seg.seg(), 0);
        }
        return op.start(s, seg, (cmp, req) -> Empi.ibcast(seg.seg(), bytes, Empi.BYTE, root, cmp, req),
                () -> { if (receives) r.unpackFrom(seg.seg(), 0); });
    }

    /**
     * @param mine   what this process sends ({@code sbytes} packed), or null
     * @param all    the root's receive buffer, every peer's block of {@code rblock} bytes; null elsewhere
     */
    public static NativeOp gather(OpContext ctx, CommStructure s, int root, Region mine, int sbytes, Region all,
                                  int rblock) {
        boolean isRoot = Roots.isRoot(s, root);
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage((long) rblock * s.peers());
        if (mine != null) {
            mine.packInto(sseg.seg(), 0);
        }
        return op.start(s, rseg, (cmp, req) -> Empi.igather(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(), rblock,
                Empi.BYTE, root, cmp, req),
                () -> { if (isRoot) all.unpackFrom(rseg.seg(), 0); });
    }

    /** As {@link #gather}, the root receiving {@code blocks} ({@link Blocks#none} elsewhere). */
    public static NativeOp gatherv(OpContext ctx, CommStructure s, int root, Region mine, int sbytes,
                                   Blocks blocks) {
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage(blocks.totalBytes());
        Staged cseg = ints(op, blocks.byteCounts());
        Staged dseg = ints(op, blocks.byteDispls());
        if (mine != null) {
            mine.packInto(sseg.seg(), 0);
        }
        return op.start(s, rseg, (cmp, req) -> Empi.igatherv(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(), cseg.seg(),
                dseg.seg(), Empi.BYTE, root, cmp, req),
                () -> blocks.unpackFrom(rseg.seg()));
    }

    /**
     * @param all    the root's send buffer, every peer's block of {@code sblock} bytes; null elsewhere
     * @param mine   where this process's block goes ({@code rbytes} packed), or null
     */
    public static NativeOp scatter(OpContext ctx, CommStructure s, int root, Region all, int sblock, Region mine,
                                   int rbytes) {
        boolean isRoot = Roots.isRoot(s, root);
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage((long) sblock * s.peers());
        Staged rseg = op.stage(rbytes);
        if (isRoot) {
            all.packInto(sseg.seg(), 0);
        }
        return op.start(s, rseg, (cmp, req) -> Empi.iscatter(sseg.seg(), sblock, Empi.BYTE, rseg.seg(), rbytes,
                Empi.BYTE, root, cmp, req),
                () -> { if (mine != null) mine.unpackFrom(rseg.seg(), 0); });
    }

    /** As {@link #scatter}, the root sending {@code blocks} ({@link Blocks#none} elsewhere). */
    public static NativeOp scatterv(OpContext ctx, CommStructure s, int root, Blocks blocks, Region mine,
                                    int rbytes) {
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage(blocks.totalBytes());
        Staged rseg = op.stage(rbytes);
        Staged cseg = ints(op, blocks.byteCounts());
        Staged dseg = ints(op, blocks.byteDispls());
        blocks.packInto(sseg.seg());
        return op.start(s, rseg, (cmp, req) -> Empi.iscatterv(sseg.seg(), cseg.seg(), dseg.seg(), Empi.BYTE,
                rseg.seg(), rbytes, Empi.BYTE, root, cmp, req),
                () -> { if (mine != null) mine.unpackFrom(rseg.seg(), 0); });
    }

    public static NativeOp allGather(OpContext ctx, CommStructure s, Region mine, int sbytes, Region all,
                                     int rblock) {
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage((long) rblock * s.peers());
        mine.packInto(sseg.seg(), 0);
        return op.start(s, rseg, (cmp, req) -> Empi.iallgather(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(), rblock,
                Empi.BYTE, cmp, req),
                () -> all.unpackFrom(rseg.seg(), 0));
    }

    public static NativeOp allGatherv(OpContext ctx, CommStructure s, Region mine, int sbytes, Blocks blocks) {
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage(sbytes);
        Staged rseg = op.stage(blocks.totalBytes());
        Staged cseg = ints(op, blocks.byteCounts());
        Staged dseg = ints(op, blocks.byteDispls());
        mine.packInto(sseg.seg(), 0);
        return op.start(s, rseg, (cmp, req) -> Empi.iallgatherv(sseg.seg(), sbytes, Empi.BYTE, rseg.seg(),
                cseg.seg(), dseg.seg(), Empi.BYTE, cmp, req),
                () -> blocks.unpackFrom(rseg.seg()));
    }

    /** Every peer's block: {@code sblock} bytes of {@code in} out, {@code rblock} bytes into {@code out}. */
    public static NativeOp allToAll(OpContext ctx, CommStructure s, Region in, int sblock, Region out, int rblock) {
        int peers = s.peers();
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage((long) sblock * peers);
        Staged rseg = op.stage((long) rblock * peers);
        in.packInto(sseg.seg(), 0);
        return op.start(s, rseg, (cmp, req) -> Empi.ialltoall(sseg.seg(), sblock, Empi.BYTE, rseg.seg(), rblock,
                Empi.BYTE, cmp, req),
                () -> out.unpackFrom(rseg.seg(), 0));
    }

    /** All-to-all with per-peer blocks (the v- and w-variants), each packed after the previous one. */
    public static NativeOp allToAllv(OpContext ctx, CommStructure s, Blocks in, Blocks out) {
        CollectiveOp op = new CollectiveOp(ctx);
        Staged sseg = op.stage(in.totalBytes());
        Staged rseg = op.stage(out.totalBytes());
        in.packInto(sseg.seg());
        Staged scs = ints(op, in.byteCounts());
        Staged sds = ints(op, in.byteDispls());
        Staged rcs = ints(op, out.byteCounts());
        Staged rds = ints(op, out.byteDispls());
        return op.start(s, rseg, (cmp, req) -> Empi.ialltoallv(sseg.seg(), scs.seg(), sds.seg(), Empi.BYTE,
                rseg.seg(), rcs.seg(), rds.seg(), Empi.BYTE, cmp, req),
                () -> out.unpackFrom(rseg.seg()));
    }
}

package org.fthp.replication.verify;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.twins.TwinLink;

/**
 * A replica's twin hash on its way to its computational copy at a checkpoint (the one message that goes that way
 * on the twin channel), under a decision number both twins take for it. A repair abandons it: the comparison is
 * then unchecked, never waited for again, so a dead twin blocks nothing.
 */
final class TwinDigestOp extends NativeOp {

    static final int LONGS = 5;

    private final CommStructure comm;
    private final boolean receiving;
    private long[] values;
    /** A repair replaced the channel first: whatever it still delivers is not read. */
    private boolean abandoned;

    private TwinDigestOp(OpContext context, CommStructure comm, boolean receiving) {
        super(context, 8L * LONGS);
        this.comm = comm;
        this.receiving = receiving;
    }

    /** The replica sends {@code values} to its twin as decision {@code tag}. */
    static TwinDigestOp send(OpContext context, CommStructure comm, int tag, long[] values) {
        TwinDigestOp op = new TwinDigestOp(context, comm, false);
        MemorySegment data = op.staging().asSlice(0, 8L * LONGS);
        MemorySegment.copy(values, 0, data, ValueLayout.JAVA_LONG, 0, LONGS);
        comm.twin().isend(data, tag, op.requestSlot());
        return op;
    }

    /** The computational copy receives its replica's hash, decision {@code tag}. */
    static TwinDigestOp receive(OpContext context, CommStructure comm, int tag) {
        TwinDigestOp op = new TwinDigestOp(context, comm, true);
        TwinLink twin = comm.twin();
        twin.irecv(op.staging().asSlice(0, 8L * LONGS), tag, op.requestSlot());
        return op;
    }

    /** The replica's values, or null when a repair came first (nothing compared). */
    long[] values() {
        return values;
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    @Override
    protected NativeOp reissue() {
        abandoned = true;
        return null;
    }

    @Override
    protected void onComplete() {
        if (receiving && !abandoned) {
            values = new long[LONGS];
            MemorySegment.copy(staging(), ValueLayout.JAVA_LONG, 0, values, 0, LONGS);
        }
    }
}

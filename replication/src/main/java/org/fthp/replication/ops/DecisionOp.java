package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.TwinLink;

/**
 * A timing-dependent outcome (a test's flag, the index waitAny chose, the
 * value of wtime) on its way from a computational copy to its replica: a few
 * longs on the twins' intercommunicator, tagged with the decision's sequence
 * number.
 */
public final class DecisionOp extends NativeOp {

    private final int length;
    private long[] values;

    private DecisionOp(StagingPool pool, int length) {
        super(pool, 8L * Math.max(1, length));
        this.length = length;
    }

    /** Sends {@code values} to the twin; the caller progresses the operation until it completes. */
    public static DecisionOp send(StagingPool pool, TwinLink twin, int tag, long... values) {
        DecisionOp op = new DecisionOp(pool, values.length);
        MemorySegment.copy(values, 0, op.staging(), ValueLayout.JAVA_LONG, 0, values.length);
        Empi.isend(op.staging(), 8 * values.length, Empi.BYTE, twin.twinRank(), tag, twin.comm(), op.requestSlot());
        return op;
    }

    /** Receives up to {@code maxLength} longs from the twin. */
    public static DecisionOp receive(StagingPool pool, TwinLink twin, int tag, int maxLength) {
        DecisionOp op = new DecisionOp(pool, maxLength);
        Empi.irecv(op.staging(), 8 * maxLength, Empi.BYTE, twin.twinRank(), tag, twin.comm(), op.requestSlot());
        return op;
    }

    /** The values received (all {@code maxLength} slots; a shorter decision leaves the rest 0). */
    public long[] values() {
        return values;
    }

    @Override
    protected void onComplete() {
        values = new long[length];
        MemorySegment.copy(staging(), ValueLayout.JAVA_LONG, 0, values, 0, length);
    }

    @Override
    protected void releaseBuffers() {
    }
}

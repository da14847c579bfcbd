package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.twins.TwinLink;

/**
 * A timing-dependent outcome (a test's flag, the index waitAny chose, the
 * value of wtime) on its way from a computational copy to its replica: a few
 * longs on the twins' intercommunicator, tagged with the decision's sequence
 * number.
 */
public final class DecisionOp extends NativeOp {

    private final int length;
    private final CommStructure comm;
    private final boolean receiving;
    private final int tag;
    private long[] values;
    /** A replica promoted before its twin's decision came: nobody will decide for it. */
    private boolean orphaned;
    /** Promoted, with the dead twin's decision found delivered (TwinRecords#inherit): nobody to acknowledge to. */
    private boolean fromDeadTwin;

    private DecisionOp(OpContext context, int length, CommStructure comm, boolean receiving, int tag) {
        super(context, 8L * Math.max(1, length));
        this.length = length;
        this.comm = comm;
        this.receiving = receiving;
        this.tag = tag;
    }

    /** Sends {@code values} to the twin; the caller progresses the operation until it completes. */
    public static DecisionOp send(OpContext context, CommStructure comm, int tag, long... values) {
        TwinLink twin = comm.twin();
        DecisionOp op = new DecisionOp(context, values.length, comm, false, tag);
        MemorySegment data = op.staging().asSlice(0, 8L * values.length);
        MemorySegment.copy(values, 0, data, ValueLayout.JAVA_LONG, 0, values.length);
        twin.forwarded(tag, data);
        twin.isend(data, tag, op.requestSlot());
        return op;
    }

    /** Sends a logged decision again, after a repair, to a twin that had not received it. */
    public static DecisionOp resend(OpContext context, CommStructure comm, int tag, byte[] data) {
        TwinLink twin = comm.twin();
        DecisionOp op = new DecisionOp(context, (data.length + 7) / 8, comm, false, tag);
        MemorySegment.copy(data, 0, op.staging(), ValueLayout.JAVA_BYTE, 0, data.length);
        twin.isend(op.staging().asSlice(0, data.length), tag, op.requestSlot());
        return op;
    }

    /** Receives up to {@code maxLength} longs from the twin. */
    public static DecisionOp receive(OpContext context, CommStructure comm, int tag, int maxLength) {
        DecisionOp op = new DecisionOp(context, maxLength, comm, true, tag);
        TwinLink twin = comm.twin();
        twin.irecv(op.staging().asSlice(0, 8L * maxLength), tag, op.requestSlot());
        return op;
    }

    /**
     * The values received (all {@code maxLength} slots; a shorter decision
     * leaves the rest 0), or null when this process was promoted before its
     * twin decided: it must decide itself.
     */
    public long[] values() {
        if (successor() instanceof DecisionOp next) {
            return next.values();
        }
        return orphaned ? null : values;
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    /** A forwarded decision is in the twin log; an awaited one is awaited again, unless nobody is left to send it. */
    @Override
    protected NativeOp reissue() {
        if (!receiving) {
            return null;
        }
        CommStructure now = comm.current();
        if (now.twin() == null || !now.twin().follows()) {
            byte[] inherited = now.twinRecords().takeInherited(tag);
            if (inherited == null) {
                orphaned = true;
            } else {
                // the dead twin's decision had arrived: it may have sent what depends on it
                fromDeadTwin = true;
                MemorySegment.copy(inherited, 0, staging(), ValueLayout.JAVA_BYTE, 0,
                        (int) Math.min(inherited.length, 8L * length));
            }
            return null;
        }
        return receive(context, now, tag, length);
    }

    @Override
    protected void onComplete() {
        if (orphaned) {
            return;
        }
        values = new long[length];
        MemorySegment.copy(staging(), ValueLayout.JAVA_LONG, 0, values, 0, length);
        if (receiving && !fromDeadTwin) {
            context.twinReceived(comm.twin().commId(), comm.twin().received(tag));
        }
    }
}

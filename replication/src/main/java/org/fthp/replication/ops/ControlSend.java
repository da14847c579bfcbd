package org.fthp.replication.ops;

import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.control.ControlComm;

/** A small message of the facade's own bookkeeping (an acknowledgement) to a native rank. */
public final class ControlSend extends NativeOp {

    /** Abandoned by a rollback, it changes nothing the program sees: a control message is the engine's own. */
    @Override
    boolean onlyReadsProgramMemory() {
        return true;
    }

    private ControlSend(OpContext context) {
        super(context, 16);
    }

    /** Sends {@code (a, b, c)} as 16 bytes with {@code tag} on {@code comm} to native process {@code nativeRank}. */
    public static ControlSend send(OpContext context, ControlComm comm, int nativeRank, int tag, int a, int b,
                                   long c) {
        ControlSend op = new ControlSend(context);
        op.staging().set(ValueLayout.JAVA_INT, 0, a);
        op.staging().set(ValueLayout.JAVA_INT, 4, b);
        op.staging().set(ValueLayout.JAVA_LONG, 8, c);
        Empi.isend(op.staging(), 16, Empi.BYTE, comm.rank(nativeRank), tag, comm.handle(), op.requestSlot());
        return op;
    }

    /** Bookkeeping: a repair makes it moot (the next acknowledgement says more). */
    @Override
    protected NativeOp reissue() {
        return null;
    }
}

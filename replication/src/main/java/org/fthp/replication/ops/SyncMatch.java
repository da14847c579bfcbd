package org.fthp.replication.ops;

import org.fthp.empi.Empi;
import org.fthp.replication.log.MessageRecords;
import org.fthp.replication.structure.CommStructure;

/**
 * The rest of a synchronous send whose native send a repair abandoned (or that had no copy to send to): it
 * completes once a live copy of the destination has matched the message, as the repair's records say or as
 * that copy tells this one ({@code Acknowledgements#matched}). No native request: the slot holds
 * MPI_REQUEST_NULL, which tests complete at once, and {@link #startNextPhase} says whether to go on waiting.
 */
final class SyncMatch extends NativeOp {

    /** Abandoned by a rollback, it changes nothing the program sees: the match notice lands in the engine's scratch. */
    @Override
    boolean onlyReadsProgramMemory() {
        return true;
    }
    private final MessageRecords records;
    private final CommStructure comm;
    private final int dest;
    private final long sendId;

    SyncMatch(OpContext context, MessageRecords records, CommStructure comm, int dest, long sendId) {
        super(context);
        this.records = records;
        this.comm = comm;
        this.dest = dest;
        this.sendId = sendId;
        Empi.setHandle(requestSlot(), 0, Empi.REQUEST_NULL);
    }

    private boolean matched() {
        return comm.alreadyHas(dest, false, sendId) || comm.alreadyHas(dest, true, sendId)
                || records.acknowledgements().matched(comm.commId(), dest, sendId);
    }

    @Override
    protected boolean startNextPhase() {
        return !matched();
    }

    /** A send's cancel does nothing here (there is no native request to cancel). */
    @Override
    public void cancel() {
    }

    /** Through any number of repairs: waits on over the rebuilt communicator. */
    @Override
    protected NativeOp reissue() {
        return new SyncMatch(context, records, comm.current(), dest, sendId);
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    /**
     * What a logged send a repair abandoned becomes (this one, or a pulled one): nothing for a standard send
     * (the log's resend covers it), the wait for a match for a synchronous one.
     */
    static NativeOp afterRepair(OpContext context, MessageRecords records, CommStructure comm, SendMode mode, int dest,
                                long sendId) {
        if (mode == SendMode.SYNCHRONOUS && records.acknowledgements() != null) {
            return new SyncMatch(context, records, comm.current(), dest, sendId);
        }
        return null;
    }
}

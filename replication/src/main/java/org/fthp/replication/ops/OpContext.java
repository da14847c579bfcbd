package org.fthp.replication.ops;

import java.util.function.Consumer;

import org.fthp.replication.staging.MessageMemory;
import org.fthp.replication.staging.PeerMemory;
import org.fthp.replication.staging.PullMemory;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.twins.TwinLink;

/**
 * What every native operation of one process shares, handed to each at
 * construction: the staging pool its memory comes from, the list of
 * operations in flight a repair walks, the collective logs a repair replays
 * from (their replays go to the operations nobody waits for), and where a
 * replica's received decisions are acknowledged.
 *
 * <p>One per process, built at {@code MPI_Init} (runtime.Engine). Only the
 * thread that holds the gate touches it.
 */
public final class OpContext {

    private final StagingPool pool;
    private final MessageMemory messages = new MessageMemory();
    private final InFlight inFlight = new InFlight();
    /** The collective logs; their replays are operations, progressed in the background. */
    private final CollectiveLogs<NativeOp> collectiveLogs;
    /** Made at the first payload offered (a program without large messages never maps one); null if it failed. */
    private PullMemory pullMemory;
    private boolean pullMemoryTried;
    /** Idle bytes of pull memory whose pages are kept. */
    private final long pullIdleBytes;
    private final PeerMemory peerMemory = new PeerMemory();
    /** Set once, after the acknowledgements exist (they send through operations of this context). */
    private TwinLink.Acknowledger twinAcknowledger;

    /**
     * @param pool           staging memory
     * @param keepCollectives whether collectives are logged for replay (only a replicated job ever replays)
     * @param background     progresses a replay nobody waits for until it completes (the orphan list)
     * @param pullIdleBytes  idle pull memory whose pages are kept (with replicas: what the send log may hold)
     */
    public OpContext(StagingPool pool, boolean keepCollectives, Consumer<NativeOp> background, long pullIdleBytes) {
        this.pool = pool;
        this.pullIdleBytes = pullIdleBytes;
        this.collectiveLogs = new CollectiveLogs<>(keepCollectives, background);
    }

    public StagingPool pool() {
        return pool;
    }

    /** Memory of large logged messages, shared by the log and the message's sends, when not pull memory. */
    MessageMemory messages() {
        return messages;
    }

    /**
     * Where large payloads wait for receivers on this node to copy them (logged or not), or null: the kernel
     * refused. Whether a payload is offered at all is {@code PullSend.offers}'s call (FTHP_PULL_BYTES).
     */
    PullMemory pullMemory() {
        if (!pullMemoryTried) {
            pullMemoryTried = true;
            pullMemory = PullMemory.create(pullIdleBytes);
        }
        return pullMemory;
    }

    /** Other processes' pull memory, as this one reads it. */
    PeerMemory peerMemory() {
        return peerMemory;
    }

    public InFlight inFlight() {
        return inFlight;
    }

    public CollectiveLogs<NativeOp> collectiveLogs() {
        return collectiveLogs;
    }

    /** Once, at start-up of a replicated job. */
    public void acknowledgeTwinWith(TwinLink.Acknowledger acknowledger) {
        this.twinAcknowledger = acknowledger;
    }

    /** A replica has received its twin's decisions on {@code commId} through {@code through}. */
    void twinReceived(int commId, long through) {
        TwinLink.Acknowledger a = twinAcknowledger;
        if (a != null) {
            a.received(commId, through);
        }
    }
}

package org.fthp.replication.ops;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.fthp.empi.Empi;
import org.fthp.replication.progress.BackoffIdleStrategy;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.staging.OpBlock;
import org.fthp.replication.staging.StagingPool;

/**
 * Operations nobody waits for: those whose request the program freed before
 * completion ({@code Request.free()}), the engine's own acknowledgements and
 * forwards, and the eager messages of blocking sends that returned once they
 * were started ({@link #detach}). They still own staging memory and must
 * finish, so every progress loop advances them and Finalize drains them.
 *
 * <p>A send done inline (ops.InlineTransfer: a job without replicas) leaves
 * only its pooled block here, native request inside ({@link #detachSend}): no
 * operation object, and its {@code MPI_Test} comes in the next turn of a wait
 * instead of between the send and whatever the program does next.
 *
 * <p>Only the thread holding the engine's gate touches it (the program's
 * thread in an MPI call, or the repair thread), as with the operations in
 * flight ({@code ops.InFlight}): no lock of its own, since a small send
 * passes here twice (detached, then completed) and two uncontended monitor
 * round trips showed in its CPU time.
 */
public final class OrphanRequests {

    /**
     * At most this many eager sends in flight without anyone waiting: a
     * program that sends faster than the native library delivers then waits
     * in its send again, so the staging memory they hold stays bounded.
     */
    static final int MAX_DETACHED = Integer.getInteger("fthp.send.maxDetached", 256);

    /**
     * At most this many inline sends' blocks wait here untested (a power of two): a program that sends without
     * ever waiting tests the oldest when they are all taken, one test per send as when each tested its own.
     */
    static final int MAX_SENDS = 64;

    private final List<NativeOp> ops = new ArrayList<>();
    private final StagingPool pool;
    /** Inline sends in flight, oldest first from {@link #sendsHead}: a ring of {@link #sendCount} blocks. */
    private final OpBlock[] sends = new OpBlock[MAX_SENDS];
    private int sendsHead;
    private int sendCount;

    /** @param pool where the blocks of detached inline sends go back once complete */
    public OrphanRequests(StagingPool pool) {
        this.pool = pool;
    }

    public void adopt(NativeOp op) {
        if (!op.isComplete()) {
            ops.add(op);
        }
    }

    /**
     * Takes over the operations of a blocking send that may return before
     * they complete (ops.SendOp#detachable), unless too many already wait
     * here. Returns whether it took them (else the caller waits for them).
     */
    public boolean detach(NativeOp[] sends) {
        if (ops.size() + sends.length > MAX_DETACHED) {
            return false;
        }
        for (NativeOp op : sends) {
            if (!op.isComplete()) {
                ops.add(op);
            }
        }
        return true;
    }

    /**
     * Takes over an inline send's block whose native send was started in its request slot, untested: it goes
     * back to the pool once a test finds the send complete. Returns false when {@link #MAX_SENDS} are here and
     * the oldest is still in flight: the caller then tests its own.
     */
    boolean detachSend(OpBlock block) {
        if (sendCount == MAX_SENDS && !retireOldestSend()) {
            return false;
        }
        sends[(sendsHead + sendCount) & (MAX_SENDS - 1)] = block;
        sendCount++;
        return true;
    }

    /**
     * Polls every orphan once. An orphan completing may adopt new ones (a
     * receive's completion sends an acknowledgement), so this walks by index
     * and lets the list grow underneath. Returns how many completed.
     */
    public int progress() {
        int completed = sendCount == 0 ? 0 : progressSends();
        return ops.isEmpty() ? completed : completed + progressAll();
    }

    /**
     * Tests the detached inline sends from the oldest, until one is still in flight (the native library
     * completes a process's eager sends in order, mostly): returns how many completed.
     */
    private int progressSends() {
        int completed = 0;
        while (sendCount > 0 && retireOldestSend()) {
            completed++;
        }
        return completed;
    }

    /** Tests the oldest detached inline send once; if complete, its block goes back. Returns whether it did. */
    private boolean retireOldestSend() {
        OpBlock block = sends[sendsHead];
        boolean done;
        try {
            Empi.test(block.request(), block.flag(), block.status());
            done = block.flag().get(ValueLayout.JAVA_INT, 0) != 0;
        } catch (RuntimeException e) {
            done = true;   // completed with an error: nobody is left to report it to
        }
        if (!done) {
            return false;
        }
        sends[sendsHead] = null;
        sendsHead = (sendsHead + 1) & (MAX_SENDS - 1);
        sendCount--;
        pool.release(block);
        return true;
    }

    private int progressAll() {
        int completed = 0;
        for (int i = 0; i < ops.size(); ) {
            NativeOp op = ops.get(i);
            boolean done;
            try {
                done = op.poll();
            } catch (RuntimeException e) {
                done = true;   // nobody is left to report it to
            }
            if (done) {
                int last = ops.size() - 1;
                ops.set(i, ops.get(last));
                ops.remove(last);
                completed++;
            } else {
                i++;
            }
        }
        return completed;
    }

    private boolean isEmpty() {
        return ops.isEmpty() && sendCount == 0;
    }

    /** How many operations nobody waits for are still in flight (each in the operations in flight, too). */
    public int size() {
        return ops.size();
    }

    /**
     * At MPI_Finalize: completes what can complete within {@code nanos}. By
     * then every process has finished its communication (FinalizeBarrier), so
     * what is left are acknowledgements and forwards nobody waits for; one
     * addressed to a process that died since would never complete.
     */
    public void drain(long nanos) {
        long deadline = System.nanoTime() + nanos;
        DutyCycle.await(() -> isEmpty() || System.nanoTime() - deadline >= 0, this::progress,
                new BackoffIdleStrategy());
    }
}

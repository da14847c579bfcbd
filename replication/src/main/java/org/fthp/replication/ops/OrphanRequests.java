package org.fthp.replication.ops;

import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.progress.BackoffIdleStrategy;
import org.fthp.replication.progress.DutyCycle;

/**
 * Operations nobody waits for: those whose request the program freed before
 * completion ({@code Request.free()}), the engine's own acknowledgements and
 * forwards, and the eager messages of blocking sends that returned once they
 * were started ({@link #detach}). They still own staging memory and must
 * finish, so every progress loop advances them and Finalize drains them.
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

    private final List<NativeOp> ops = new ArrayList<>();

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
     * Polls every orphan once. An orphan completing may adopt new ones (a
     * receive's completion sends an acknowledgement), so this walks by index
     * and lets the list grow underneath. Returns how many completed.
     */
    public int progress() {
        return ops.isEmpty() ? 0 : progressAll();
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
        return ops.isEmpty();
    }

    /** How many operations nobody waits for are still in flight. */
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

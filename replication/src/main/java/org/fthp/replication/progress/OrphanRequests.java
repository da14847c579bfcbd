package org.fthp.replication.progress;

import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.ops.NativeOp;

/**
 * Operations whose request the program freed before completion
 * ({@code Request.free()}): they still own staging memory and must finish, so
 * every progress loop advances them and Finalize drains them.
 */
public final class OrphanRequests {

    private final List<NativeOp> ops = new ArrayList<>();

    public synchronized void adopt(NativeOp op) {
        if (!op.isComplete()) {
            ops.add(op);
        }
    }

    /**
     * Polls every orphan once. An orphan completing may adopt new ones (a
     * receive's completion sends an acknowledgement), so this walks by index
     * and lets the list grow underneath. Returns how many completed.
     */
    public synchronized int progress() {
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

    private synchronized boolean isEmpty() {
        return ops.isEmpty();
    }

    /** How many operations nobody waits for are still in flight. */
    public synchronized int size() {
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

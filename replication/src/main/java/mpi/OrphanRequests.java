package mpi;

import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.progress.IdleStrategy;

/**
 * Operations whose request the program freed before completion
 * ({@code Request.free()}): they still own staging memory and must finish, so
 * every progress loop advances them and Finalize drains them.
 */
final class OrphanRequests {

    private final List<NativeOp> ops = new ArrayList<>();

    synchronized void adopt(NativeOp op) {
        if (!op.isComplete()) {
            ops.add(op);
        }
    }

    /**
     * Polls every orphan once. An orphan completing may adopt new ones (a
     * receive's completion sends an acknowledgement), so this walks by index
     * and lets the list grow underneath.
     */
    synchronized void progress() {
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
            } else {
                i++;
            }
        }
    }

    /**
     * At MPI_Finalize: completes what can complete within {@code nanos}. By
     * then every process has finished its communication (FinalizeBarrier), so
     * what is left are acknowledgements and forwards nobody waits for; one
     * addressed to a process that died since would never complete.
     */
    void drain(long nanos) {
        IdleStrategy idle = new IdleStrategy();
        idle.reset();
        long deadline = System.nanoTime() + nanos;
        while (System.nanoTime() - deadline < 0) {
            synchronized (this) {
                progress();
                if (ops.isEmpty()) {
                    return;
                }
            }
            idle.idle();
        }
    }
}

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

    synchronized void progress() {
        if (!ops.isEmpty()) {
            ops.removeIf(op -> {
                try {
                    return op.poll();
                } catch (RuntimeException e) {
                    return true; // nobody is left to report it to
                }
            });
        }
    }

    void drain() {
        IdleStrategy idle = new IdleStrategy();
        idle.reset();
        while (true) {
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

package org.fthp.replication.runtime;

import java.util.concurrent.locks.LockSupport;

import org.fthp.replication.failure.FailureWatch;
import org.fthp.replication.repair.Repair;

/**
 * Repairs while the program computes outside MPI (docs/DESIGN.md §9, the paper's
 * repair thread). Survivors agree and rebuild together, so a process that
 * only repaired at its next MPI call would hold every other survivor until
 * then. This thread wakes on each failure set and takes the {@link Gate}:
 * if the program is outside MPI it gets it and repairs; if the program is
 * inside a call, that call's progress loop repairs and this thread just
 * waits for the gate or for the repair to be done.
 *
 * <p>The gate keeps the two threads from ever being inside the library at
 * once, so the library need only accept calls from either thread one at a
 * time (Engine#nativeThreadLevel: SERIALIZED, or SINGLE where that
 * is safe and cheaper).
 */
public final class RepairThread implements Runnable {

    /** How long one attempt to take the gate lasts before checking again whether repair is still needed. */
    private static final long GATE_WAIT_NANOS = 1_000_000;
    /** Idle sleep between failure sets; a new set unparks the thread at once. */
    private static final long IDLE_PARK_NANOS = 100_000_000;

    private final Repair repair;
    private final Gate gate;
    private final FailureWatch watch;
    private volatile boolean stopped;
    private Thread thread;

    private RepairThread(Repair repair, Gate gate, FailureWatch watch) {
        this.repair = repair;
        this.gate = gate;
        this.watch = watch;
    }

    static RepairThread start(Repair repair, Gate gate, FailureWatch watch) {
        gate.share();   // before the thread can enter
        RepairThread r = new RepairThread(repair, gate, watch);
        Thread t = new Thread(r, "fthp-repair");
        t.setDaemon(true);
        r.thread = t;
        watch.wake(t);
        t.start();
        return r;
    }

    /** At Finalize, with the gate held: no repair starts after this. */
    public void stop() {
        stopped = true;
        watch.wake(null);
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                if (!repair.pending()) {
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                    continue;
                }
                if (gate.tryEnter(GATE_WAIT_NANOS)) {
                    try {
                        if (!stopped && repair.pending()) {
                            repair.run();
                        }
                    } finally {
                        gate.exit();
                    }
                }
            }
        } catch (InterruptedException e) {
            // the JVM is going down
        }
    }
}

package org.fthp.replication.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who may touch the facade's state now: the program's thread inside an MPI
 * call, or the repair thread while the program computes outside MPI. Every
 * public call that reaches communicators, requests or logs holds it for its
 * whole length, so a repair never sees a call half-way through (it replaces
 * structures and moves operations in flight). Reentrant: calls nest.
 *
 * <p>Uncontended, entering and leaving cost two compare-and-sets, far below
 * the cost of the smallest native message.
 */
public final class Gate {

    private final ReentrantLock lock = new ReentrantLock();
    /** Entries so far: the program's MPI calls, nested ones included (what {@code --kill R#CALL} counts). */
    private long entries;
    /** The entry at which this process kills itself; 0: never. */
    private long killAt;
    private int nativeRank;

    public void enter() {
        lock.lock();
        if (++entries == killAt) {
            org.fthp.replication.failure.CallKill.now(nativeRank, killAt);
        }
    }

    public long entries() {
        return entries;
    }

    /** This process dies as it enters its {@code call}-th call from now (0: never). */
    public void killAtCall(int rank, long call) {
        nativeRank = rank;
        killAt = call == 0 ? 0 : entries + call;
    }

    public void exit() {
        lock.unlock();
    }

    /** For the repair thread: enters only if the program leaves MPI within the time given. */
    public boolean tryEnter(long nanos) throws InterruptedException {
        return lock.tryLock(nanos, TimeUnit.NANOSECONDS);
    }
}

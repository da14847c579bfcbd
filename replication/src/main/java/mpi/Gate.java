package mpi;

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
final class Gate {

    private static final ReentrantLock LOCK = new ReentrantLock();

    private Gate() {}

    static void enter() {
        LOCK.lock();
    }

    static void exit() {
        LOCK.unlock();
    }

    /** For the repair thread: enters only if the program leaves MPI within the time given. */
    static boolean tryEnter(long nanos) throws InterruptedException {
        return LOCK.tryLock(nanos, TimeUnit.NANOSECONDS);
    }
}

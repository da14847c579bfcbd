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
    /** Entries so far: the program's MPI calls, nested ones included (what {@code --kill R#CALL} counts). */
    private static long entries;
    /** The entry at which this process kills itself; 0: never. */
    private static long killAt;
    private static int nativeRank;

    private Gate() {}

    static void enter() {
        LOCK.lock();
        if (++entries == killAt) {
            org.fthp.replication.failure.CallKill.now(nativeRank, killAt);
        }
    }

    static long entries() {
        return entries;
    }

    /** This process dies as it enters its {@code call}-th call from now (0: never). */
    static void killAtCall(int rank, long call) {
        nativeRank = rank;
        killAt = call == 0 ? 0 : entries + call;
    }

    static void exit() {
        LOCK.unlock();
    }

    /** For the repair thread: enters only if the program leaves MPI within the time given. */
    static boolean tryEnter(long nanos) throws InterruptedException {
        return LOCK.tryLock(nanos, TimeUnit.NANOSECONDS);
    }
}

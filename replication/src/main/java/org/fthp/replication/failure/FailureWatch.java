package org.fthp.replication.failure;

import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.FailedProcess;

/**
 * The latest failure set the coordinators announced, handed from the
 * coordinator client's thread to the thread that calls MPI. Reading whether
 * something new arrived is one volatile read, so every progress loop can ask.
 *
 * <p>With a life lock (coordinator.liveness.LifeLock) the coordinator also
 * posts each failure set on the lock file's board, and every such read looks
 * there first (one more memory read): the thread that calls MPI then learns
 * of a failure on its next turn, without waiting for the connection's thread
 * to be scheduled, which on a node full of spinning ranks took tens of
 * milliseconds. Whichever way brings an epoch first installs it.
 */
public final class FailureWatch {

    /** A job-wide failure set: every native rank that died so far, and its epoch. */
    public record Snapshot(long epoch, Set<Integer> deadNativeRanks) {}

    private final BlockingCalls blockingCalls;
    private volatile Snapshot latest = new Snapshot(0, Set.of());
    private volatile long lastEventNanos;
    /** Which way the latest failure set came: the board ({@code true}) or the connection. */
    private volatile boolean lastFromBoard;
    private volatile Thread waiter;
    /** The coordinator's failure board for this process, or null. */
    private volatile org.fthp.coordinator.liveness.LifeLock board;

    FailureWatch(BlockingCalls blockingCalls) {
        this.blockingCalls = blockingCalls;
    }

    /**
     * On the connection's thread. Plain loops on the way to the unpark (here and in the wedge check): a
     * stream's first run links its lambdas and loads its classes, and this runs once per failure, cold, between
     * the failure set's arrival and its install.
     */
    void onFailureSet(long epoch, List<FailedProcess> failed) {
        java.util.HashSet<Integer> dead = new java.util.HashSet<>();
        for (FailedProcess f : failed) {
            dead.add(f.nativeRank());
        }
        install(epoch, java.util.Collections.unmodifiableSet(dead), false);
    }

    /**
     * Reads failure sets off {@code lifeLock}'s board from now on. The read is made once here, at start-up: its
     * first run links var handles and loads classes, which at the failure would hold every survivor up at once.
     */
    void readBoard(org.fthp.coordinator.liveness.LifeLock lifeLock) {
        long[] epoch = new long[1];
        int[] dead = lifeLock.readBoard(epoch);
        if (dead != null && lifeLock.boardEpoch() >= 0) {
            setOf(dead);
        }
        this.board = lifeLock;
    }

    /** Plain loop, no stream: runs at the failure, on the thread every survivor waits for. */
    private static Set<Integer> setOf(int[] ranks) {
        java.util.HashSet<Integer> set = new java.util.HashSet<>();
        for (int r : ranks) {
            set.add(r);
        }
        return java.util.Collections.unmodifiableSet(set);
    }

    /** A newer failure set on the board, if there is one, is installed (by whichever thread asks). */
    private void poll() {
        org.fthp.coordinator.liveness.LifeLock b = board;
        if (b == null || b.boardEpoch() <= latest.epoch()) {
            return;
        }
        long[] epoch = new long[1];
        int[] dead = b.readBoard(epoch);
        if (dead != null) {
            install(epoch[0], setOf(dead), true);
        }
    }

    private synchronized void install(long epoch, Set<Integer> dead, boolean fromBoard) {
        if (epoch <= latest.epoch()) {
            return;
        }
        lastEventNanos = System.nanoTime();
        lastFromBoard = fromBoard;
        latest = new Snapshot(epoch, dead);
        blockingCalls.failureArrived(dead);
        Thread w = waiter;
        if (w != null) {
            java.util.concurrent.locks.LockSupport.unpark(w);
        }
    }

    /** The thread to wake (unpark) when a new failure set arrives: the repair thread. */
    public void wake(Thread thread) {
        this.waiter = thread;
    }

    public Snapshot latest() {
        poll();
        return latest;
    }

    public long epoch() {
        poll();
        return latest.epoch();
    }

    /** Whether the latest failure set was read off the coordinator's board rather than the connection. */
    public boolean lastFromBoard() { return lastFromBoard; }

    /** When the latest failure set arrived (System.nanoTime), 0 if none has. */
    public long lastEventNanos() { return lastEventNanos; }
}

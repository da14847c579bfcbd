package org.fthp.replication.failure;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.fthp.coordinator.event.FailedProcess;

/**
 * The latest failure set the coordinators announced, handed from the
 * coordinator client's thread to the thread that calls MPI. Reading whether
 * something new arrived is one volatile read, so every progress loop can ask.
 */
public final class FailureWatch {

    /** A job-wide failure set: every native rank that died so far, and its epoch. */
    public record Snapshot(long epoch, Set<Integer> deadNativeRanks) {}

    private final BlockingCalls blockingCalls;
    private volatile Snapshot latest = new Snapshot(0, Set.of());
    private volatile long lastEventNanos;
    private volatile Thread waiter;

    FailureWatch(BlockingCalls blockingCalls) {
        this.blockingCalls = blockingCalls;
    }

    void onFailureSet(long epoch, List<FailedProcess> failed) {
        if (epoch <= latest.epoch()) {
            return;
        }
        Set<Integer> dead = failed.stream().map(FailedProcess::nativeRank).collect(Collectors.toUnmodifiableSet());
        lastEventNanos = System.nanoTime();
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

    public Snapshot latest() { return latest; }

    public long epoch() { return latest.epoch(); }

    /** When the latest failure set arrived (System.nanoTime), 0 if none has. */
    public long lastEventNanos() { return lastEventNanos; }
}

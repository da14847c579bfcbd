package org.fthp.replication.progress;

import java.util.concurrent.locks.LockSupport;

/**
 * What a progress loop does between two fruitless polls: spin briefly, then
 * yield for a while, and only then park with growing pauses (after Agrona's
 * BackoffIdleStrategy, with a time bound on the yielding phase).
 *
 * <p>Replicated runs put more processes than cores on a machine; a loop that
 * only spins would starve the very peer it waits for, hence the yields. But
 * the native library advances a nonblocking collective only inside this
 * process's own test calls, and a parked thread sleeps at least the kernel's
 * timer slack (about 50 µs), so parking early stalls every peer waiting on
 * this one: parking starts only after {@code fthp.idle.yieldMicros} of waiting.
 *
 * <p>The spinning turns execute no pause instruction ({@code Thread.onSpinWait}): each turn of a wait already
 * tests a native request, and the pause costs about as much as that test on recent processors (some 30 ns on
 * AMD's Zen 5), so it would double the time between two looks at a message that has arrived.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    private static final int SPINS = Integer.getInteger("fthp.idle.spins", 100);
    private static final long YIELD_NS = Long.getLong("fthp.idle.yieldMicros", 2_000) * 1_000;
    private static final long MIN_PARK_NS = 1_000;
    private static final long MAX_PARK_NS = Long.getLong("fthp.idle.maxParkMicros", 500) * 1_000;

    private int spins;
    private long yieldingSince;
    private long parkNs;

    @Override
    public void reset() {
        spins = 0;
        yieldingSince = 0;
        parkNs = MIN_PARK_NS;
    }

    @Override
    public void idle() {
        if (spins < SPINS) {
            spins++;
            return;
        }
        long now = System.nanoTime();
        if (yieldingSince == 0) {
            yieldingSince = now;
        }
        if (now - yieldingSince < YIELD_NS) {
            Thread.yield();
            return;
        }
        LockSupport.parkNanos(parkNs);
        parkNs = Math.min(parkNs << 1, MAX_PARK_NS);
    }
}

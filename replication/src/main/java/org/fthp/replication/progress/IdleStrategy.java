package org.fthp.replication.progress;

import java.util.concurrent.locks.LockSupport;

/**
 * What a progress loop does between two fruitless polls: spin briefly, then
 * yield, then park with growing pauses (after Agrona's BackoffIdleStrategy).
 *
 * <p>Replicated runs put more processes than cores on a machine; a loop that
 * only spins would starve the very peer it waits for, while one that parks at
 * once would add a scheduler wake-up to every small message.
 */
public final class IdleStrategy {

    private static final int SPINS = Integer.getInteger("fthp.idle.spins", 200);
    private static final int YIELDS = Integer.getInteger("fthp.idle.yields", 100);
    private static final long MIN_PARK_NS = 1_000;
    private static final long MAX_PARK_NS = Long.getLong("fthp.idle.maxParkNs", 200_000);

    private int spins;
    private int yields;
    private long parkNs;

    /** Called after a poll that made progress. */
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = MIN_PARK_NS;
    }

    /** Called after a poll that found nothing to do. */
    public void idle() {
        if (spins < SPINS) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < YIELDS) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, MAX_PARK_NS);
        }
    }
}

package org.fthp.replication.progress;

import java.util.concurrent.locks.LockSupport;

/**
 * Spins a few turns, then parks with growing pauses, never yields: for waits on a twin at a comparison, which
 * last as long as one copy of a rank runs ahead of the other (milliseconds on an oversubscribed node) and gain
 * nothing from an early answer. A yielding waiter stays runnable and takes a turn on the core at every pass of
 * the scheduler, from the copies that compute what it waits for; a parked one leaves the core to them. The
 * pauses stay short enough ({@link #MAX_PARK_NS}) that the wait still runs the engine's duty often: a repair
 * ends it when the twin is dead.
 */
public final class ParkingIdleStrategy implements IdleStrategy {

    /** Turns spun first: an answer already on its way arrives within them. */
    static final int SPINS = 20;
    static final long MIN_PARK_NS = 20_000;
    static final long MAX_PARK_NS = 250_000;

    private int spins;
    private long parkNs;

    @Override
    public void reset() {
        spins = 0;
        parkNs = MIN_PARK_NS;
    }

    @Override
    public void idle() {
        if (spins < SPINS) {
            spins++;
            return;
        }
        LockSupport.parkNanos(parkNs);
        parkNs = Math.min(parkNs << 1, MAX_PARK_NS);
    }

    /** The pause the next fruitless turn after the spins parks for. */
    long nextParkNanos() {
        return parkNs;
    }
}

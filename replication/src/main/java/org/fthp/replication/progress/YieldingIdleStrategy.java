package org.fthp.replication.progress;

/**
 * Yields the core on every fruitless turn, never parks: for the waits of a
 * repair, where every survivor is in the same repair and a parked thread
 * would cost each round at least the kernel's timer slack on an
 * oversubscribed node.
 */
public final class YieldingIdleStrategy implements IdleStrategy {

    @Override
    public void idle() {
        Thread.yield();
    }

    @Override
    public void reset() {
    }
}

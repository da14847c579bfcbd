package org.fthp.replication.progress;

/**
 * Spins on every fruitless turn: for short waits on a message already on its way (a receive of a matched
 * message, a send to itself), where even a yield would cost more than the wait.
 */
public final class BusySpinIdleStrategy implements IdleStrategy {

    @Override
    public void idle() {
        Thread.onSpinWait();
    }

    @Override
    public void reset() {
    }
}

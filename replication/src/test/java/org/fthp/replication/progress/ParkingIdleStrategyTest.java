package org.fthp.replication.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ParkingIdleStrategyTest {

    @Test
    void spinsFirstThenParksLongerEachTurnUpToItsBound() {
        ParkingIdleStrategy idle = new ParkingIdleStrategy();
        idle.reset();
        for (int i = 0; i < ParkingIdleStrategy.SPINS; i++) {
            idle.idle();
        }
        // the spins leave the pause untouched: no turn has parked yet
        assertEquals(ParkingIdleStrategy.MIN_PARK_NS, idle.nextParkNanos());
        idle.idle();
        assertEquals(2 * ParkingIdleStrategy.MIN_PARK_NS, idle.nextParkNanos());
        for (int i = 0; i < 10; i++) {
            idle.idle();
        }
        assertEquals(ParkingIdleStrategy.MAX_PARK_NS, idle.nextParkNanos());
    }

    @Test
    void aTurnThatDidWorkStartsOverWithSpins() {
        ParkingIdleStrategy idle = new ParkingIdleStrategy();
        idle.reset();
        for (int i = 0; i < ParkingIdleStrategy.SPINS + 3; i++) {
            idle.idle();
        }
        idle.idle(1);
        assertEquals(ParkingIdleStrategy.MIN_PARK_NS, idle.nextParkNanos());
        for (int i = 0; i < ParkingIdleStrategy.SPINS; i++) {
            idle.idle(0);
        }
        assertEquals(ParkingIdleStrategy.MIN_PARK_NS, idle.nextParkNanos());
    }
}

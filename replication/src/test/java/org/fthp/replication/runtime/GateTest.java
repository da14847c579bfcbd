package org.fthp.replication.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/**
 * The gate serialised (the program's calls only: a count) and shared (its own lock: reentrant, one thread at a
 * time, a bounded wait for the repair thread).
 */
class GateTest {

    @Test
    void aSerialisedGateCountsNestedEntriesAndRefusesAnotherThread() {
        Gate gate = new Gate();
        gate.enter();
        gate.enter();
        gate.exit();
        assertThrows(IllegalStateException.class, gate::share, "shared from inside a call");
        assertThrows(IllegalStateException.class, () -> gate.tryEnter(1_000), "no other thread before share");
        gate.exit();
        assertThrows(IllegalMonitorStateException.class, gate::exit, "left more often than entered");
        assertEquals(2, gate.entries());
        gate.share();
        assertThrows(IllegalMonitorStateException.class, gate::exit, "shared, still not held");
    }

    @Test
    void aRollbackEnginesGateStaysSharedWhenTheOldOneWas() throws Exception {
        Gate old = sharedGate();
        Gate next = new Gate();
        next.continueFrom(old);
        next.enter();
        assertFalse(enteredFromAnotherThread(next, 20), "a lock, like the gate it continues");
        next.exit();
        Gate serialised = new Gate();
        serialised.continueFrom(new Gate());
        assertThrows(IllegalStateException.class, () -> serialised.tryEnter(1_000), "serialised, like its old gate");
    }

    @Test
    void nestedEntriesOpenTheGateOnlyWhenAllAreLeft() throws Exception {
        Gate gate = sharedGate();
        gate.enter();
        gate.enter();
        gate.exit();
        assertFalse(enteredFromAnotherThread(gate, 20), "still held after one of two exits");
        gate.exit();
        assertTrue(enteredFromAnotherThread(gate, 2_000), "open after both exits");
        assertEquals(2, gate.entries(), "the program's two entries; the other thread's tryEnter is not one");
    }

    @Test
    void leavingAGateThisThreadDoesNotHoldFails() {
        Gate gate = sharedGate();
        assertThrows(IllegalMonitorStateException.class, gate::exit);
    }

    @Test
    void aWaitingThreadEntersOnceTheOwnerLeavesAndSeesItsWrites() throws Exception {
        Gate gate = sharedGate();
        int[] shared = {0};
        gate.enter();
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicBoolean saw = new AtomicBoolean();
        Thread other = new Thread(() -> {
            waiting.countDown();
            gate.enter();
            try {
                saw.set(shared[0] == 42);
            } finally {
                gate.exit();
            }
        });
        other.start();
        assertTrue(waiting.await(5, TimeUnit.SECONDS));
        Thread.sleep(5);   // the other thread is spinning, yielding or parked by now
        shared[0] = 42;
        gate.exit();
        other.join(5_000);
        assertFalse(other.isAlive(), "the waiting thread entered");
        assertTrue(saw.get(), "it saw what the owner wrote before leaving");
    }

    @Test
    void twoThreadsNeverInsideTogether() throws Exception {
        Gate gate = sharedGate();
        AtomicBoolean inside = new AtomicBoolean();
        AtomicBoolean overlap = new AtomicBoolean();
        int[] counter = {0};
        Runnable work = () -> {
            for (int i = 0; i < 20_000; i++) {
                gate.enter();
                try {
                    if (!inside.compareAndSet(false, true)) {
                        overlap.set(true);
                    }
                    counter[0]++;
                    inside.set(false);
                } finally {
                    gate.exit();
                }
            }
        };
        Thread a = new Thread(work);
        Thread b = new Thread(work);
        a.start();
        b.start();
        a.join(60_000);
        b.join(60_000);
        assertFalse(overlap.get(), "two threads were inside at once");
        assertEquals(40_000, counter[0], "no increment lost");
    }

    /**
     * A program polling in a tight loop (testSome until something arrives) leaves the gate open only for
     * nanoseconds between calls. The repair thread must still get in at its first bounded attempt: before the
     * hand-off, survivors waited 22 s for such a process's repair, and a suite run hung.
     */
    @Test
    void theRepairThreadGetsInBetweenTheCallsOfAPollingLoop() throws Exception {
        Gate gate = sharedGate();
        AtomicBoolean stop = new AtomicBoolean();
        long[] calls = {0};
        Thread program = new Thread(() -> {
            while (!stop.get()) {
                gate.enter();
                calls[0]++;
                long inside = System.nanoTime() + 20_000;   // a long call: the gate is open a few ns in 20 µs
                while (System.nanoTime() - inside < 0) {
                    Thread.onSpinWait();
                }
                gate.exit();
            }
        });
        program.start();
        try {
            Thread.sleep(20);   // the loop is running (and compiled) by now
            for (int attempt = 0; attempt < 20; attempt++) {
                assertTrue(enteredFromAnotherThread(gate, 200), "the repair thread's attempt " + attempt
                        + " did not get in between the program's calls");
            }
        } finally {
            stop.set(true);
            program.join(10_000);
        }
        assertFalse(program.isAlive());
        assertTrue(calls[0] > 0, "the program's loop ran");
    }

    @Test
    void anInterruptedRepairThreadStopsWaiting() {
        Gate gate = sharedGate();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> gate.tryEnter(1_000_000));
    }

    private static Gate sharedGate() {
        Gate gate = new Gate();
        gate.share();
        return gate;
    }

    private static boolean enteredFromAnotherThread(Gate gate, long millis) throws Exception {
        boolean[] entered = {false};
        Thread t = new Thread(() -> {
            try {
                entered[0] = gate.tryEnter(TimeUnit.MILLISECONDS.toNanos(millis));
                if (entered[0]) {
                    gate.exit();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        t.join(millis + 10_000);
        return entered[0];
    }
}

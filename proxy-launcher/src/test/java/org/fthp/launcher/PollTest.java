package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class PollTest {

    @Test
    void endsWhenTheConditionHolds() {
        AtomicInteger looks = new AtomicInteger();
        assertTrue(Poll.until(() -> looks.incrementAndGet() >= 3, Poll.NEVER));
        assertTrue(looks.get() >= 3);
    }

    @Test
    void endsAtTheDeadlineWithFalse() {
        long start = System.nanoTime();
        assertFalse(Poll.within(() -> false, 30));
        assertTrue(System.nanoTime() - start >= 30_000_000L);
    }

    @Test
    void anInterruptEndsTheWaitAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        try {
            assertFalse(Poll.until(() -> false, Poll.NEVER));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aProcessThatEndedIsGone() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertTrue(Poll.gone(p.toHandle(), 10_000));
    }
}

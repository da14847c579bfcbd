package org.fthp.coordinator.testing;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.client.FailureListener;
import org.fthp.coordinator.event.FailedProcess;

/** Queues every callback so a test can wait for the next one, or assert that none comes. */
public final class RecordingListener implements FailureListener {
    public sealed interface Event permits SetEvent, AbortEvent { }
    public record SetEvent(long epoch, List<FailedProcess> failed) implements Event { }
    public record AbortEvent(String reason, int lostRank) implements Event { }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    @Override
    public void onFailureSet(long epoch, List<FailedProcess> failed) {
        events.add(new SetEvent(epoch, failed));
    }

    @Override
    public void onJobAbort(String reason, int lostRank) {
        events.add(new AbortEvent(reason, lostRank));
    }

    public Event next(Duration within) throws InterruptedException {
        Event e = events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        if (e == null) {
            fail("no coordinator event within " + within);
        }
        return e;
    }

    public SetEvent nextSet(Duration within) throws InterruptedException {
        Event e = next(within);
        if (!(e instanceof SetEvent s)) {
            throw new AssertionError("expected a failure set, got " + e);
        }
        return s;
    }

    /** Skips failure sets until the abort arrives. */
    public AbortEvent awaitAbort(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            Event e = events.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (e == null) {
                fail("no JOB_ABORT within " + within);
            }
            if (e instanceof AbortEvent a) {
                return a;
            }
        }
    }

    public void assertNoneQueued() {
        assertNull(events.peek(), "unexpected coordinator event");
    }
}

package org.fthp.coordinator.wire;

/**
 * Whether the other end of one link is still heard, from the times it was heard and the times this end checked.
 * Pure logic over a clock the caller reads ({@code now} in nanoseconds), so that it can be tested without waiting.
 *
 * <p>The rule: the link is lost when {@link #check} has run {@code misses} times since the last message and at
 * least {@link Heartbeats#timeout()} has passed since it. Counting checks, not just time, keeps this end's own
 * stalls out of the verdict: a JVM paused by a collection, or starved of CPU on a loaded machine, checks late, and
 * a late check counts once however late it is. Reading the socket comes before the check when the stalled thread
 * runs again (Netty serves I/O before tasks), so what the other end sent meanwhile is heard first.
 *
 * <p>Until the other end is first heard, twice the silence is allowed.
 *
 * <p>Not thread-safe: one link's I/O thread owns it.
 */
public final class LinkLiveness {
    private final int misses;
    private final long timeoutNanos;
    private long lastHeardNanos;
    private int checksSinceHeard;
    /** Extra silence allowed until the other end is first heard. */
    private long graceNanos;

    public LinkLiveness(Heartbeats settings, long nowNanos) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("heartbeats are off");
        }
        this.misses = settings.misses();
        this.timeoutNanos = settings.timeout().toNanos();
        this.lastHeardNanos = nowNanos;
        // the first silence may last twice as long: the other end's first heartbeat runs code for the first time
        // (class loading, the JIT), which on a loaded machine took more than a second in the measurements
        this.checksSinceHeard = -misses;
        this.graceNanos = timeoutNanos;
    }

    /** Anything arrived from the other end. */
    public void heard(long nowNanos) {
        lastHeardNanos = nowNanos;
        checksSinceHeard = 0;
        graceNanos = 0;
    }

    /** One periodic check; true when the other end is to be taken for lost. */
    public boolean check(long nowNanos) {
        checksSinceHeard++;
        return checksSinceHeard >= misses && nowNanos - lastHeardNanos >= timeoutNanos + graceNanos;
    }

    /** How long the other end has been silent. */
    public long silentNanos(long nowNanos) {
        return nowNanos - lastHeardNanos;
    }
}

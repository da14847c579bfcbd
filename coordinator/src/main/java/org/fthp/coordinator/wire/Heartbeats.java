package org.fthp.coordinator.wire;

import java.time.Duration;
import java.util.Objects;

/**
 * How a coordinator link proves it is alive: each end sends a HEARTBEAT every {@code interval}, and takes the link
 * for lost once it has ticked {@code misses} times in a row without hearing anything from the other end.
 *
 * <p>The defaults, 250 ms × 8, take a host cut off from the network for lost 2 to 2.25 s after its last message
 * on an idle machine, later on a loaded one (a check late on the listening side counts once however late it is:
 * {@link LinkLiveness}). The margin is for a heavily loaded machine, where a JVM's heartbeats can be held up for
 * several intervals in a row: {@code HeartbeatGapBench} measures those gaps (docs/notes/hosts.md §10), and the
 * timeout is kept well above the worst of them.
 *
 * @param interval time between two heartbeats of one end (and between two checks of the other end's silence)
 * @param misses   silent checks in a row after which the link is lost; 0 with a zero interval: no heartbeats
 */
public record Heartbeats(Duration interval, int misses) {
    public static final Heartbeats DEFAULT = new Heartbeats(Duration.ofMillis(250), 8);
    /** No heartbeats: a link is lost only when its connection closes (one host: the kernel always says so). */
    public static final Heartbeats OFF = new Heartbeats(Duration.ZERO, 0);

    public Heartbeats {
        Objects.requireNonNull(interval, "interval");
        boolean off = interval.isZero() && misses == 0;
        if (!off && (interval.isNegative() || interval.isZero() || misses < 2)) {
            // one miss would take a single late heartbeat for a lost host
            throw new IllegalArgumentException("heartbeats need an interval > 0 and at least 2 misses, got "
                    + interval.toMillis() + " ms x " + misses);
        }
    }

    public boolean enabled() {
        return misses > 0;
    }

    /** The least silence that loses a link. */
    public Duration timeout() {
        return interval.multipliedBy(misses);
    }

    /** {@code MILLISxMISSES} ("250x6"), or "off". */
    public static Heartbeats parse(String text) {
        String t = text.strip();
        if (t.equals("off")) {
            return OFF;
        }
        int x = t.indexOf('x');
        try {
            if (x > 0) {
                return new Heartbeats(Duration.ofMillis(Long.parseLong(t.substring(0, x))),
                        Integer.parseInt(t.substring(x + 1)));
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw new IllegalArgumentException("heartbeats: expected MILLISxMISSES (e.g. 250x6) or off, got '" + text
                + "'");
    }

    @Override
    public String toString() {
        return enabled() ? interval.toMillis() + "x" + misses : "off";
    }
}

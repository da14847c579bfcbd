package org.fthp.replication.structure;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Messages this process already took out of the native library but the
 * program has not received yet, in arrival order; a receive looks here before
 * it asks the native library.
 *
 * <p>A probe fills it: a header-only message (a large message's header, or an
 * empty message) must be read to learn its size, and the read consumes it
 * natively.
 *
 * <p>A repair that rebuilds the communicator abandons its native
 * communicators, and with them a large message's payload still travelling on
 * the old internal channel; the message is not consumed, so its sender sends
 * it again, whole, on the new ones. The structure over the new communicators
 * keeps the old arrivals as <em>resent</em> ones ({@link #carryOver}): a probe
 * still sees them at once (MPI: a message a probe returned stays there for the
 * next probe or receive of it, even while the copy sent again is on its way),
 * and a receive that takes one receives the copy sent again, the first native
 * message of that source with that tag.
 */
public final class ArrivedMessages {

    /**
     * A header-only message: who sent it (peer rank in the communicator), its
     * tag, and the header bytes; {@code resent}: read before a repair, its
     * sender sends it again (the native message is still to be received).
     */
    public record Arrival(int source, int tag, byte[] header, boolean resent) {
        public Arrival(int source, int tag, byte[] header) {
            this(source, tag, header, false);
        }
    }

    private final List<Arrival> arrivals = new ArrayList<>(0);
    /** Read without the lock on every receive: almost always false, and then no lock is taken. */
    private volatile boolean any;

    public synchronized void add(Arrival a) {
        arrivals.add(a);
        any = true;
    }

    /** The oldest arrival matching ({@code anySource}/{@code anyTag} are wildcards), removed; null if none. */
    public Arrival take(int source, int tag, int anySource, int anyTag) {
        return any ? takeLocked(source, tag, anySource, anyTag) : null;
    }

    private synchronized Arrival takeLocked(int source, int tag, int anySource, int anyTag) {
        for (Iterator<Arrival> it = arrivals.iterator(); it.hasNext(); ) {
            Arrival a = it.next();
            if (matches(a, source, tag, anySource, anyTag)) {
                it.remove();
                any = !arrivals.isEmpty();
                return a;
            }
        }
        return null;
    }

    /** The oldest arrival matching, left in place; null if none. */
    public Arrival peek(int source, int tag, int anySource, int anyTag) {
        return any ? peekLocked(source, tag, anySource, anyTag) : null;
    }

    private synchronized Arrival peekLocked(int source, int tag, int anySource, int anyTag) {
        for (Arrival a : arrivals) {
            if (matches(a, source, tag, anySource, anyTag)) {
                return a;
            }
        }
        return null;
    }

    /**
     * Keeps every arrival of {@code predecessor} (the same communicator over
     * the native communicators a repair abandoned) as a resent one, in order.
     */
    public synchronized void carryOver(ArrivedMessages predecessor) {
        for (Arrival a : predecessor.snapshot()) {
            arrivals.add(a.resent() ? a : new Arrival(a.source(), a.tag(), a.header(), true));
        }
        any = !arrivals.isEmpty();
    }

    private synchronized List<Arrival> snapshot() {
        return new ArrayList<>(arrivals);
    }

    public boolean isEmpty() {
        return !any;
    }

    private static boolean matches(Arrival a, int source, int tag, int anySource, int anyTag) {
        return (source == anySource || a.source() == source) && (tag == anyTag || a.tag() == tag);
    }
}

package org.fthp.msglog;

/**
 * Send ids of one communicator as seen by one sender: a counter per
 * destination. Both twins of a sender issue the same sends in the same order,
 * so they hand out the same ids, which is what lets a receiver recognise a
 * message it already has when a promoted replica resends it.
 */
public final class SendSequence {

    private final long[] next;

    public SendSequence(int destinations) {
        if (destinations < 0) {
            throw new IllegalArgumentException("destinations " + destinations);
        }
        this.next = new long[destinations];
    }

    /** The id of the next message to {@code destination}; ids start at 1. */
    public long next(int destination) {
        return ++next[destination];
    }

    /** The last id handed out to {@code destination}, 0 if none. */
    public long last(int destination) {
        return next[destination];
    }

    public int destinations() {
        return next.length;
    }
}

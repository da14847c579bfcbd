package org.fthp.msglog;

/**
 * Memory holding a message the log adopted rather than copied
 * ({@link SendLog#adopt}): the sender packed it once, and the same bytes are
 * the log entry and what its native sends read. The log holds one reference
 * to it and gives that up with {@link #release} exactly once, when the entry
 * is trimmed or evicted; whoever else still reads the bytes (a send in
 * flight) holds its own, and the memory is reused only after the last one.
 */
public interface RetainedMessage {

    /** The log no longer needs the bytes. */
    void release();
}

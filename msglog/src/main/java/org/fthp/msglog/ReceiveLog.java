package org.fthp.msglog;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which messages this process has consumed, by (communicator, logical
 * source, send id): what repair exchanges so senders resend exactly what some
 * live copy still lacks, and what lets a promoted replica skip a message its
 * twin already had.
 *
 * <p>Messages of one stream are mostly consumed in send order, so a stream is
 * a watermark (every id up to it consumed) plus the few ids consumed out of
 * order above it (a receive that picked a later tag first).
 */
public final class ReceiveLog {

    private static final class Stream {
        long through;
        final TreeSet<Long> above = new TreeSet<>();
    }

    private final Map<Long, Stream> streams = new HashMap<>();
    private long consumed;
    /** The stream of the previous call: consecutive messages mostly share one. */
    private long lastKey;
    private Stream last;

    /** Records that the message {@code sendId} from {@code source} on {@code commId} was consumed. */
    public void consumed(int commId, int source, long sendId) {
        long key = key(commId, source);
        Stream s = last;
        if (s == null || key != lastKey) {
            s = streams.computeIfAbsent(key, k -> new Stream());
            last = s;
            lastKey = key;
        }
        if (sendId == s.through + 1 && s.above.isEmpty()) {
            // the common case, in order: no set to touch
            s.through = sendId;
            consumed++;
            return;
        }
        if (sendId <= s.through || !s.above.add(sendId)) {
            throw new IllegalStateException("message " + sendId + " from " + source + " on communicator " + commId
                    + " consumed twice");
        }
        while (!s.above.isEmpty() && s.above.first() == s.through + 1) {
            s.through = s.above.pollFirst();
        }
        consumed++;
    }

    public boolean hasConsumed(int commId, int source, long sendId) {
        Stream s = streams.get(key(commId, source));
        return s != null && (sendId <= s.through || s.above.contains(sendId));
    }

    /** Every id up to this one has been consumed (0 if none). */
    public long consumedThrough(int commId, int source) {
        long key = key(commId, source);
        // asked right after consumed() of the same stream: no boxed key, no lookup
        Stream s = last != null && key == lastKey ? last : streams.get(key);
        return s == null ? 0 : s.through;
    }

    /** The ids above {@link #consumedThrough} consumed out of order, ascending. */
    public long[] consumedAbove(int commId, int source) {
        Stream s = streams.get(key(commId, source));
        return s == null ? new long[0] : s.above.stream().mapToLong(Long::longValue).toArray();
    }

    /** What one stream's record holds, for {@link #forEachStream}. */
    @FunctionalInterface
    public interface StreamVisitor {
        void visit(int commId, int source, long through, long[] above);
    }

    /** Visits every stream that has consumed something. */
    public void forEachStream(StreamVisitor visitor) {
        for (Map.Entry<Long, Stream> e : streams.entrySet()) {
            long k = e.getKey();
            Stream s = e.getValue();
            visitor.visit((int) (k >>> 32), (int) k, s.through,
                    s.above.stream().mapToLong(Long::longValue).toArray());
        }
    }

    /** Messages consumed since the start. */
    public long consumed() { return consumed; }

    private static long key(int commId, int source) {
        return ((long) commId << 32) | (source & 0xffffffffL);
    }
}

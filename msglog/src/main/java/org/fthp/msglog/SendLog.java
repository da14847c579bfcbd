package org.fthp.msglog;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sender-based message log (docs/DESIGN.md §8): every point-to-point message this
 * process sent, header and payload, kept so it can be resent when a copy of
 * its destination is lost before consuming it. Both twins of a sender log the
 * same messages under the same (communicator, destination, send id), so
 * whichever survives can resend.
 *
 * <p>Entries of one (communicator, destination) stream are kept in send-id
 * order. {@link #trimThrough} drops what every live copy of the destination
 * has consumed (learned from acknowledgements). A byte limit given at
 * construction evicts the oldest entries beyond it, counted and reported
 * because a recovery could have needed them; the facade gives no limit and
 * waits for acknowledgements instead.
 *
 * <p>Entries live off the Java heap ({@link EntryMemory}): hundreds of
 * megabytes of logged payload on the heap made every garbage collection copy
 * them. A large message is adopted instead ({@link #adopt}): the sender packs
 * it once into off-heap memory it counts references to, and that memory is
 * both the entry and what every native send of the message reads, so the
 * payload is not copied again for the log. The log belongs to the thread
 * that sends (the MPI thread).
 */
public final class SendLog {

    /** One logged message: the native tag it travelled with and its bytes (header first). */
    public static final class Entry {
        private final long sendId;
        private final int tag;
        private final MemorySegment message;
        /** The log's own copy, or null when the message was adopted. */
        private final EntryMemory.Block block;
        /** The sender's memory of an adopted message, or null when the log copied it. */
        private final RetainedMessage retained;

        private Entry(long sendId, int tag, MemorySegment message, EntryMemory.Block block,
                      RetainedMessage retained) {
            this.sendId = sendId;
            this.tag = tag;
            this.message = message;
            this.block = block;
            this.retained = retained;
        }

        public long sendId() { return sendId; }

        public int tag() { return tag; }

        /** Header and payload; valid while the entry is in the log (or while a holder of {@link #retained} reads it). */
        public MemorySegment message() { return message; }

        /**
         * The memory of an adopted message, which a resend may take its own reference to
         * rather than copy the bytes; null when the log holds its own copy.
         */
        public RetainedMessage retained() { return retained; }

        long bytes() {
            return message.byteSize();
        }
    }

    private final EntryMemory memory = new EntryMemory();

    private final Map<Long, ArrayDeque<Entry>> streams = new HashMap<>();
    /**
     * The stream the latest entry joined, and its key: a program sends to the same destination many times in
     * a row, which then costs no boxed key and no hash lookup. Streams are never removed, so it never goes stale.
     */
    private ArrayDeque<Entry> lastStream;
    private long lastKey;
    private final long limitBytes;
    private long evicted;
    private long bytes;
    private long peakBytes;
    private long entries;
    private long logged;

    /** A log that holds at most {@code limitBytes} (evicting the oldest entries beyond). */
    public SendLog(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("log limit " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /** Logs a message: its header and (possibly empty) payload are copied. */
    public void record(int commId, int dest, long sendId, int tag, MemorySegment header, MemorySegment payload) {
        long h = header.byteSize();
        long p = payload == null ? 0 : payload.byteSize();
        if (h + p > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("message of " + (h + p) + " bytes cannot be logged");
        }
        ArrayDeque<Entry> stream = stream(commId, dest, sendId);
        EntryMemory.Block block = memory.acquire(h + p);
        MemorySegment copy = block.segment().asSlice(0, h + p);
        MemorySegment.copy(header, 0, copy, 0, h);
        if (p > 0) {
            MemorySegment.copy(payload, 0, copy, h, p);
        }
        add(stream, new Entry(sendId, tag, copy, block, null));
    }

    /**
     * Logs a message without copying it: {@code message} (header first) is
     * the sender's, and stays valid until the log calls
     * {@code memory.release()}, once, when the entry is trimmed or evicted.
     * The caller hands the log one reference to {@code memory}.
     */
    public void adopt(int commId, int dest, long sendId, int tag, MemorySegment message, RetainedMessage memory) {
        if (message.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("message of " + message.byteSize() + " bytes cannot be logged");
        }
        add(stream(commId, dest, sendId), new Entry(sendId, tag, message, null, memory));
    }

    /** The stream a new entry joins, checked to keep send-id order. */
    private ArrayDeque<Entry> stream(int commId, int dest, long sendId) {
        long key = key(commId, dest);
        ArrayDeque<Entry> stream = lastStream;
        if (stream == null || key != lastKey) {
            stream = streams.computeIfAbsent(key, k -> new ArrayDeque<>());
            lastStream = stream;
            lastKey = key;
        }
        Entry last = stream.peekLast();
        if (last != null && last.sendId() >= sendId) {
            throw new IllegalStateException("send id " + sendId + " to " + dest + " on communicator " + commId
                    + " after " + last.sendId());
        }
        return stream;
    }

    private void add(ArrayDeque<Entry> stream, Entry e) {
        stream.addLast(e);
        bytes += e.bytes();
        peakBytes = Math.max(peakBytes, bytes);
        entries++;
        logged++;
        if (bytes > limitBytes) {
            evictBeyondLimit(stream);
        }
    }

    /** Oldest first: this stream's, then the others'. The newest entry always stays. */
    private void evictBeyondLimit(ArrayDeque<Entry> newest) {
        while (bytes > limitBytes && newest.size() > 1) {
            drop(newest);
        }
        for (ArrayDeque<Entry> stream : streams.values()) {
            while (bytes > limitBytes && !stream.isEmpty() && stream != newest) {
                drop(stream);
            }
        }
    }

    private void drop(ArrayDeque<Entry> stream) {
        Entry e = stream.pollFirst();
        bytes -= e.bytes();
        free(e);
        entries--;
        evicted++;
    }

    private void free(Entry e) {
        if (e.block != null) {
            memory.release(e.block);
        } else {
            e.retained.release();
        }
    }

    /** Entries evicted by the byte limit rather than trimmed as no longer needed. */
    public long evicted() { return evicted; }

    public long limitBytes() { return limitBytes; }

    /** Drops the entries of a stream up to and including {@code sendId}; returns the bytes freed. */
    public long trimThrough(int commId, int dest, long sendId) {
        ArrayDeque<Entry> stream = streams.get(key(commId, dest));
        long freed = 0;
        while (stream != null && !stream.isEmpty() && stream.peekFirst().sendId() <= sendId) {
            Entry e = stream.pollFirst();
            freed += e.bytes();
            free(e);
            entries--;
        }
        bytes -= freed;
        return freed;
    }

    /** The logged messages of a stream with ids above {@code consumedThrough}, in send order. */
    public List<Entry> after(int commId, int dest, long consumedThrough) {
        ArrayDeque<Entry> stream = streams.get(key(commId, dest));
        List<Entry> out = new ArrayList<>();
        if (stream != null) {
            for (Entry e : stream) {
                if (e.sendId() > consumedThrough) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /**
     * The logged messages of a stream that a receiver with this record still
     * lacks (ids above {@code consumedThrough} and not in {@code consumedAbove}),
     * in send order. Throws when the log no longer holds one of them: the
     * limit evicted what a recovery needs, and resending the rest would
     * silently lose a message.
     */
    public List<Entry> missing(int commId, int dest, long consumedThrough, long[] consumedAbove, long lastSent) {
        ArrayDeque<Entry> stream = streams.get(key(commId, dest));
        List<Entry> out = new ArrayList<>();
        long expect = consumedThrough + 1;
        int skip = 0;
        if (stream != null) {
            for (Entry e : stream) {
                if (e.sendId() <= consumedThrough) {
                    continue;
                }
                while (skip < consumedAbove.length && consumedAbove[skip] < e.sendId()) {
                    skip++;
                }
                if (skip < consumedAbove.length && consumedAbove[skip] == e.sendId()) {
                    expect = e.sendId() + 1;
                    continue;
                }
                if (e.sendId() != expect && !consumedBetween(consumedAbove, expect, e.sendId())) {
                    throw new IllegalStateException(lost(commId, dest, expect));
                }
                out.add(e);
                expect = e.sendId() + 1;
            }
        }
        if (expect <= lastSent && !consumedBetween(consumedAbove, expect, lastSent + 1)) {
            throw new IllegalStateException(lost(commId, dest, expect));
        }
        return out;
    }

    /** Whether every id in [from, to) is in the sorted {@code ids}. */
    private static boolean consumedBetween(long[] ids, long from, long to) {
        for (long id = from; id < to; id++) {
            if (java.util.Arrays.binarySearch(ids, id) < 0) {
                return false;
            }
        }
        return true;
    }

    private String lost(int commId, int dest, long sendId) {
        return "message " + sendId + " to " + dest + " on communicator " + commId
                + " is needed by a recovery but the log no longer holds it (" + evicted
                + " entries evicted by the log limit of " + limitBytes + " bytes)";
    }

    /** Bytes held now. */
    public long bytes() { return bytes; }

    /** The most bytes ever held at once. */
    public long peakBytes() { return peakBytes; }

    /** Entries held now. */
    public long entries() { return entries; }

    /** Messages logged since the start. */
    public long logged() { return logged; }

    private static long key(int commId, int dest) {
        return ((long) commId << 32) | (dest & 0xffffffffL);
    }
}

package org.fthp.replication.log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;

import org.fthp.empi.Empi;
import org.fthp.msglog.SendLog;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.tags.InternalTags;

/**
 * What keeps the send log bounded (docs/DESIGN.md §8): receivers tell the senders
 * how far they have consumed each stream, and a sender drops a logged
 * message once every live copy of its destination has it — no recovery can
 * need it any more.
 *
 * <p>An acknowledgement is 16 bytes (communicator, the receiver's rank as the
 * sender addresses it, consumed-through id) on the engine's control
 * communicator (control.ControlComm), sent to every live copy of the source (both log the
 * stream) after every {@value #EVERY} messages of a stream (a large message
 * counts as several, see {@link #BYTES_PER_COUNT}), or sooner when the
 * receiver idles in MPI with some unacknowledged. Senders keep one
 * receive posted for them and read them whenever the facade progresses.
 */
public final class Acknowledgements {

    /** Who the copies are, from the current (repaired) layout. */
    public interface Peers {
        /** Native ranks of the live copies of peer {@code peer} of communicator {@code commId}, or null if unknown. */
        int[] copies(int commId, int peer);

        /** This process's rank in communicator {@code commId} (as its peers address it). */
        int selfRank(int commId);

        /** A replica's computational twin (native rank), or -1 when this process has none or is not a replica. */
        int computationalTwin();

        /** This computational copy's replica has received every decision on {@code commId} up to {@code through}. */
        void twinReceived(int commId, long through);
    }

    /** Sends one acknowledgement; the caller progresses it to completion. */
    public interface Sender {
        void send(int nativeRank, int commId, int receiverRank, long through);
    }

    static final int EVERY = 64;
    /**
     * Payload bytes that count as one more message toward {@link #EVERY}: a
     * message of 1 MiB is acknowledged at once, one of 64 KiB after about a
     * dozen. Counting messages alone let a stream of 1 MiB messages keep 64
     * MiB per destination copy in the sender's log, memory that then came
     * fresh from the kernel for every message instead of from the staging
     * pool; an acknowledgement costs a 16-byte message.
     */
    static final long BYTES_PER_COUNT = 16 << 10;
    /** The "receiver rank" of a twin acknowledgement, and the "source" of its stream here. */
    static final int TWIN = -1;
    private static final long IDLE_NANOS = 2_000_000;
    private static final long INBOX_TEST_NANOS = 20_000;

    private final SendLog log;
    private final ControlComm control;
    private final Peers peers;
    private final Sender sender;
    private final Map<Long, long[]> unacked = new HashMap<>();   // stream -> {through, unacked count, last ack nanos}
    private final Map<Long, Map<Integer, Long>> acked = new HashMap<>();   // (comm, dest) -> native rank -> through
    /** (comm, dest) -> synchronous sends a copy of dest matched, above every live copy's watermark. */
    private final Map<Long, java.util.Set<Long>> syncMatched = new HashMap<>();
    private long lastKey;
    private long[] lastStream;
    private final MemorySegment inbox;
    private final MemorySegment request;
    private final MemorySegment flag;
    private final MemorySegment status;
    private long trimNanos;
    /** Some stream has messages not yet acknowledged; none is due for an idle acknowledgement before {@link #nextIdleDue}. */
    private boolean idlePending;
    private long nextIdleDue;
    /** The inbox is tested again only after this (nanoTime): see {@link #progress()}. */
    private long nextInboxTest;

    public Acknowledgements(SendLog log, ControlComm control, Peers peers, Sender sender) {
        this.log = log;
        this.control = control;
        this.peers = peers;
        this.sender = sender;
        Arena arena = Arena.global();
        this.inbox = arena.allocate(16, 8);
        this.request = Empi.allocateHandles(arena, 1);
        this.flag = arena.allocate(ValueLayout.JAVA_INT);
        this.status = arena.allocate(Empi.STATUS_BYTES);
        post();
    }

    private void post() {
        Empi.irecv(inbox, 16, Empi.BYTE, Empi.ANY_SOURCE, InternalTags.ACKNOWLEDGEMENT.first(), control.handle(),
                request);
    }

    /**
     * A message of stream (commId, source) with {@code payloadBytes} of payload was consumed; {@code through}
     * is the stream's watermark now.
     */
    void consumed(int commId, int source, long through, long payloadBytes) {
        long key = ((long) commId << 32) | (source & 0xffffffffL);
        long[] s = lastStream;
        if (s == null || key != lastKey) {
            // most calls repeat the previous stream (a replica's decisions all come on one): no boxing then
            s = unacked.computeIfAbsent(key, k -> new long[] {0, 0, System.nanoTime() - IDLE_NANOS});
            lastStream = s;
            lastKey = key;
        }
        s[0] = through;
        long before = s[1];
        s[1] += 1 + payloadBytes / BYTES_PER_COUNT;
        if (s[1] >= EVERY) {
            acknowledge(commId, source, s);
        } else if (before == 0) {
            idleDueAt(s[2] + IDLE_NANOS);
        }
    }

    /**
     * This process matched message {@code sendId} of a synchronous send from {@code source}: told at once to
     * every live copy of the source, as an acknowledgement whose watermark is {@code -sendId}.
     */
    void matchedSynchronous(int commId, int source, long sendId) {
        int[] to = peers.copies(commId, source);
        int me = peers.selfRank(commId);
        if (to != null && me >= 0 && sendId > 0) {
            for (int nativeRank : to) {
                sender.send(nativeRank, commId, me, -sendId);
            }
        }
    }

    /**
     * Whether a live copy of {@code dest} has matched this process's message {@code sendId} on {@code commId}:
     * it said so, or acknowledged consuming through it.
     */
    public boolean matched(int commId, int dest, long sendId) {
        long key = ((long) commId << 32) | (dest & 0xffffffffL);
        java.util.Set<Long> ids = syncMatched.get(key);
        if (ids != null && ids.contains(sendId)) {
            return true;
        }
        Map<Integer, Long> byCopy = acked.get(key);
        int[] copies = peers.copies(commId, dest);
        if (byCopy != null && copies != null) {
            for (int c : copies) {
                if (byCopy.getOrDefault(c, 0L) >= sendId) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A replica received its twin's decisions on {@code commId} up to {@code through}. */
    public void twinReceived(int commId, long through) {
        consumed(commId, TWIN, through, 0);
    }

    private void acknowledge(int commId, int source, long[] s) {
        if (source == TWIN) {
            int twin = peers.computationalTwin();
            if (twin >= 0 && s[0] > 0) {
                sender.send(twin, commId, TWIN, s[0]);
            }
            s[1] = 0;
            s[2] = System.nanoTime();
            return;
        }
        int[] to = peers.copies(commId, source);
        int me = peers.selfRank(commId);
        if (to != null && me >= 0 && s[0] > 0) {
            for (int nativeRank : to) {
                sender.send(nativeRank, commId, me, s[0]);
            }
        }
        s[1] = 0;
        s[2] = System.nanoTime();
    }

    /**
     * Called whenever the facade progresses: reads the acknowledgements that
     * arrived and trims the log, and acknowledges streams left
     * unacknowledged for a while (a sender may be waiting for room). Returns
     * how many acknowledgements it read or sent.
     */
    public int progress() {
        long now = System.nanoTime();
        int work = 0;
        // progress loops spin; an acknowledgement is never urgent enough to cost every spin a native test
        if (now - nextInboxTest >= 0) {
            nextInboxTest = now + INBOX_TEST_NANOS;
            work += readInbox();
        }
        if (idlePending && now - nextIdleDue >= 0) {
            acknowledgeIdle(now);
            work++;
        }
        return work;
    }

    private int readInbox() {
        int read = 0;
        while (true) {
            Empi.test(request, flag, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return read;
            }
            read++;
            int from = control.nativeRank(Empi.statusSource(status, 0));
            int commId = inbox.get(ValueLayout.JAVA_INT, 0);
            int dest = inbox.get(ValueLayout.JAVA_INT, 4);
            long through = inbox.get(ValueLayout.JAVA_LONG, 8);
            post();
            if (dest == TWIN) {
                long t0 = System.nanoTime();
                peers.twinReceived(commId, through);
                trimNanos += System.nanoTime() - t0;
            } else if (through < 0) {
                syncMatched.computeIfAbsent(((long) commId << 32) | (dest & 0xffffffffL), k -> new java.util.HashSet<>())
                        .add(-through);
            } else {
                trim(commId, dest, from, through);
            }
        }
    }

    private void acknowledgeIdle(long now) {
        idlePending = false;
        for (Map.Entry<Long, long[]> e : unacked.entrySet()) {
            long[] s = e.getValue();
            if (s[1] > 0) {
                if (now - s[2] >= IDLE_NANOS) {
                    acknowledge((int) (e.getKey() >>> 32), (int) (long) e.getKey(), s);
                } else {
                    idleDueAt(s[2] + IDLE_NANOS);
                }
            }
        }
    }

    private void idleDueAt(long due) {
        if (!idlePending || due - nextIdleDue < 0) {
            nextIdleDue = due;
            idlePending = true;
        }
    }

    private void trim(int commId, int dest, int fromNative, long through) {
        long t0 = System.nanoTime();
        Map<Integer, Long> byCopy = acked.computeIfAbsent(((long) commId << 32) | (dest & 0xffffffffL),
                k -> new HashMap<>());
        byCopy.merge(fromNative, through, Math::max);
        int[] copies = peers.copies(commId, dest);
        if (copies != null) {
            long min = Long.MAX_VALUE;
            for (int c : copies) {
                min = Math.min(min, byCopy.getOrDefault(c, 0L));
            }
            if (min > 0 && min != Long.MAX_VALUE) {
                log.trimThrough(commId, dest, min);
                java.util.Set<Long> ids = syncMatched.get(((long) commId << 32) | (dest & 0xffffffffL));
                if (ids != null) {
                    long through0 = min;
                    ids.removeIf(id -> id <= through0);   // the watermark answers for those from now on
                }
            }
        }
        trimNanos += System.nanoTime() - t0;
    }

    /** Time spent trimming the log (the paper's "log removal"). */
    public long trimNanos() { return trimNanos; }
}

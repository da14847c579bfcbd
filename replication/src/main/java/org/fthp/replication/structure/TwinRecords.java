package org.fthp.replication.structure;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.fthp.msglog.ReceiveLog;
import org.fthp.msglog.SendLog;

/**
 * What went between the twins on one communicator, by decision number: the
 * outcomes a computational copy forwarded (kept, so a replica that had not
 * received one when the native communicators were replaced gets it again),
 * and the ones a replica received (what it tells its twin at a repair).
 *
 * <p>The forwarded log is bounded ({@code -Dfthp.twinLog.limitBytes}); a
 * replica acknowledges what it received at every repair, which trims it.
 */
public final class TwinRecords {

    private static final long LIMIT = Long.getLong("fthp.twinLog.limitBytes", 64L << 20);
    private static final MemorySegment NO_HEADER = MemorySegment.ofArray(new byte[0]);

    private SendLog forwarded;
    private ReceiveLog received;
    private int lastForwarded = -1;

    void forwarded(int tag, MemorySegment data) {
        if (forwarded == null) {
            forwarded = new SendLog(LIMIT);
        }
        forwarded.record(0, 0, tag + 1L, tag, NO_HEADER, data);
        lastForwarded = tag;
    }

    void received(int tag) {
        if (received == null) {
            received = new ReceiveLog();
        }
        received.consumed(0, 0, tag + 1L);
    }

    /** Decisions received: every one up to this count, plus {@link #receivedAbove()}. */
    public long receivedThrough() {
        return received == null ? 0 : received.consumedThrough(0, 0);
    }

    public long[] receivedAbove() {
        return received == null ? new long[0] : received.consumedAbove(0, 0);
    }

    /** The forwarded outcomes a twin with this record lacks, oldest first; trims what it has. */
    public List<SendLog.Entry> missing(long through, long[] above) {
        if (forwarded == null) {
            return List.of();
        }
        forwarded.trimThrough(0, 0, through);
        return forwarded.missing(0, 0, through, above, lastForwarded + 1L);
    }

    /** Bytes held by the forwarded log. */
    public long bytes() {
        return forwarded == null ? 0 : forwarded.bytes();
    }
}

package org.fthp.replication.twins;

import org.fthp.replication.tags.InternalTags;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.fthp.msglog.ReceiveLog;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.staging.HeapCopy;

/**
 * What went between the twins on one communicator, by decision number: the
 * outcomes a computational copy forwarded (kept, so a replica that had not
 * received one when the native communicators were replaced gets it again),
 * and the ones a replica received (what it tells its twin at a repair).
 *
 * <p>The replica acknowledges what it received (with the message
 * acknowledgements, {@code log.Acknowledgements}) and at every repair; both
 * trim the forwarded log. A bound ({@code -Dfthp.twinLog.limitBytes}, 64 MiB
 * with 64 bytes counted per entry) caps it should a replica stop
 * acknowledging; a repair that then needs an evicted entry fails loudly.
 */
public final class TwinRecords {

    private static final long LIMIT = Long.getLong("fthp.twinLog.limitBytes", 64L << 20);
    /** Heap cost of an entry beyond its bytes, so many tiny decisions are bounded too. */
    private static final long ENTRY_OVERHEAD = 64;

    /** A forwarded outcome: its decision number (the native tag) and bytes. */
    public record Forward(int tag, byte[] data) {}

    /** By decision number + 1: outcomes are forwarded in the order their operations complete. */
    private final TreeMap<Long, byte[]> forwarded = new TreeMap<>();
    private long forwardedBytes;
    private long evictedThrough;
    private ReceiveLog received;
    /** Decisions numbered so far: both twins number theirs alike, so the next one's number is its tag. */
    private int decisions;

    /**
     * The twin's decisions found delivered but not yet taken when a repair
     * abandoned the twin channel (by the number's low 20 bits, which the
     * wire tag carries). While the twin lives it sends them again and these
     * go as their numbers pass; if it dies, the promoted copy replays them
     * instead of deciding anew, because the twin may already have sent
     * messages that depend on them (docs/DESIGN.md §7).
     */
    private final TreeMap<Integer, byte[]> inherited = new TreeMap<>();

    private static final int LOW_MASK = (1 << InternalTags.TWIN_DECISION_BITS) - 1;

    /**
     * The number of the next decision forwarded or awaited on this
     * communicator. An inherited decision is taken right when its number is
     * handed out; one left (a collective's result: the collective runs among
     * the computational copies now) goes with the next number.
     */
    public int nextDecision() {
        if (!inherited.isEmpty()) {
            inherited.remove((decisions - 1) & LOW_MASK);
        }
        return decisions++;
    }

    /** The number the next decision will take (for tracing). */
    public int nextDecisionPeek() {
        return decisions;
    }

    /** The twin's decision number {@code lowBits} (mod 2^20), taken off an abandoned channel. */
    public void inherit(int lowBits, byte[] data) {
        inherited.put(lowBits, data);
    }

    /** Whether kept decisions remain: until then a promoted copy numbers every decision point as its twin did. */
    public boolean inherits() {
        return !inherited.isEmpty();
    }

    /** The kept decision {@code number}, taken (null if none was kept). */
    public byte[] takeInherited(int number) {
        return inherited.isEmpty() ? null : inherited.remove(number & LOW_MASK);
    }

    /**
     * After a repair has re-posted what was in flight: kept decisions
     * numbered before the next one belong to no operation any more (their
     * operations completed), so they go.
     */
    public void dropPassedInheritance() {
        inherited.keySet().removeIf(low -> ((low - decisions) & LOW_MASK) >= (LOW_MASK + 1) / 2);
    }

    void forwarded(int tag, MemorySegment data) {
        byte[] copy = HeapCopy.of(data, data.byteSize());
        forwarded.put(tag + 1L, copy);
        forwardedBytes += copy.length + ENTRY_OVERHEAD;
        while (forwardedBytes > LIMIT && forwarded.size() > 1) {
            Map.Entry<Long, byte[]> old = forwarded.pollFirstEntry();
            forwardedBytes -= old.getValue().length + ENTRY_OVERHEAD;
            evictedThrough = Math.max(evictedThrough, old.getKey());
        }
    }

    void received(int tag) {
        if (received == null) {
            received = new ReceiveLog();
        }
        received.consumed(0, 0, tag + 1L);
    }

    /** The replica acknowledged every decision up to this count: none of them can be needed again. */
    public void trimThrough(long through) {
        var done = forwarded.headMap(through, true);
        for (byte[] b : done.values()) {
            forwardedBytes -= b.length + ENTRY_OVERHEAD;
        }
        done.clear();
    }

    /** Decisions received: every one up to this count, plus {@link #receivedAbove()}. */
    public long receivedThrough() {
        return received == null ? 0 : received.consumedThrough(0, 0);
    }

    public long[] receivedAbove() {
        return received == null ? new long[0] : received.consumedAbove(0, 0);
    }

    /**
     * The forwarded outcomes a twin with this record lacks, oldest first;
     * drops what it has. Throws if the bound evicted one it may lack.
     */
    public List<Forward> missing(long through, long[] above) {
        trimThrough(through);
        if (evictedThrough > through) {
            throw new MpiError(MpiError.ERR_INTERN, "the replica lacks decisions its twin no longer holds (the twin log "
                    + "is limited to " + LIMIT + " bytes): it cannot be kept in step");
        }
        List<Forward> out = new ArrayList<>();
        for (Map.Entry<Long, byte[]> e : forwarded.entrySet()) {
            if (Arrays.binarySearch(above, e.getKey()) < 0) {
                out.add(new Forward((int) (e.getKey() - 1), e.getValue()));
            }
        }
        return out;
    }
}

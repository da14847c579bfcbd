package org.fthp.replication.ops;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

import org.fthp.replication.error.MpiError;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.ConsumedRecord;

/**
 * The collectives of one communicator, by sequence number (every member
 * starts them in the same order): which ones this process completed, and
 * enough of the recent ones to run them again (docs/DESIGN.md §9, step 6). A
 * failure can strike while some members have completed collective k and
 * others have not; then, on the new communicators, everyone who completed it
 * runs it again with the same input and throws the output away, so the
 * others can complete it.
 *
 * <p>Bounded: the newest {@code -Dfthp.collectiveLog.entries} (256) entries
 * of each communicator, at most {@code -Dfthp.collectiveLog.limitBytes}
 * (64 MiB) in all. A repair that needs an older one fails loudly.
 */
public final class CollectiveLog<R> {

    /** Runs a logged collective again on the repaired communicator, output discarded. */
    @FunctionalInterface
    public interface Replayer<R> {
        R replay(CommStructure now);
    }

    /** What the logs of all communicators share: the bound on their bytes, and where replays are progressed. */
    interface Owner<R> {
        /** Accounts {@code delta} bytes more (or fewer) kept; returns whether the shared bound is exceeded. */
        boolean account(long delta);

        /** Hands a replay over to be progressed until it completes. */
        void background(R replay);
    }

    /** Newest entries kept per communicator. */
    static final int KEEP = Integer.getInteger("fthp.collectiveLog.entries", 256);

    private record Entry<R>(long sequence, Replayer<R> replayer, long bytes) {}

    private final int commId;
    private final Owner<R> owner;
    private long begun;
    private long doneThrough;
    private final TreeSet<Long> doneAbove = new TreeSet<>();
    private final ArrayDeque<Entry<R>> entries = new ArrayDeque<>();
    private long bytes;
    private final TreeSet<Long> replays = new TreeSet<>();

    CollectiveLog(int commId, Owner<R> owner) {
        this.commId = commId;
        this.owner = owner;
    }

    long bytes() {
        return bytes;
    }

    int commId() {
        return commId;
    }

    /** The next collective's sequence number (from 1). */
    public long begin() {
        return ++begun;
    }

    /** This process completed collective {@code sequence}. */
    public void completed(long sequence) {
        if (sequence == doneThrough + 1) {
            doneThrough++;
            while (!doneAbove.isEmpty() && doneAbove.first() == doneThrough + 1) {
                doneThrough = doneAbove.pollFirst();
            }
        } else if (sequence > doneThrough) {
            doneAbove.add(sequence);
        }
    }

    /** Which collectives this process completed. */
    public ConsumedRecord completedRecord() {
        return new ConsumedRecord(doneThrough, doneAbove.stream().mapToLong(Long::longValue).toArray());
    }

    void log(long sequence, Replayer<R> replayer, long entryBytes) {
        entries.addLast(new Entry<>(sequence, replayer, entryBytes));
        bytes += entryBytes;
        boolean over = owner.account(entryBytes);
        while (entries.size() > KEEP || (over && entries.size() > 1)) {
            Entry<R> old = entries.pollFirst();
            bytes -= old.bytes();
            over = owner.account(-old.bytes());
        }
    }

    /**
     * Plans the replays of a repair: every collective this process completed
     * that one of {@code others} (the other members running collectives
     * natively now) did not.
     */
    public void plan(List<ConsumedRecord> others) {
        replays.clear();
        long from = doneThrough;
        for (ConsumedRecord r : others) {
            from = Math.min(from, r.through());
        }
        long highest = doneAbove.isEmpty() ? doneThrough : doneAbove.last();
        for (long k = from + 1; k <= highest; k++) {
            if (!completedHere(k)) {
                continue;
            }
            for (ConsumedRecord r : others) {
                if (!r.has(k)) {
                    replays.add(k);
                    break;
                }
            }
        }
    }

    private boolean completedHere(long k) {
        return k <= doneThrough || doneAbove.contains(k);
    }

    /** Starts the planned replays numbered below {@code sequence}, in order (before collective {@code sequence} starts again). */
    void replayBefore(long sequence, CommStructure now) {
        while (!replays.isEmpty() && replays.first() < sequence) {
            long k = replays.pollFirst();
            owner.background(entry(k).replayer().replay(now));
        }
    }

    /** Starts every planned replay still due, in order. */
    public void replayRest(CommStructure now) {
        replayBefore(Long.MAX_VALUE, now);
    }

    private Entry<R> entry(long k) {
        for (Iterator<Entry<R>> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry<R> e = it.next();
            if (e.sequence() == k) {
                return e;
            }
        }
        throw new MpiError(MpiError.ERR_INTERN, "collective " + k + " on communicator " + commId
                + " must be run again after a failure, but the collective log no longer holds it");
    }

    /** The replays planned at the last repair and not started yet. */
    public String plannedReplays() {
        return replays.toString();
    }
}

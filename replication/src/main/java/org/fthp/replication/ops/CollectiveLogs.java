package org.fthp.replication.ops;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The collective logs of every live communicator of this process, by
 * communicator id, and the bound they share (docs/DESIGN.md §8).
 */
public final class CollectiveLogs<R> implements CollectiveLog.Owner<R> {
    /** Bytes kept over all communicators. */
    static final long LIMIT = Long.getLong("fthp.collectiveLog.limitBytes", 64L << 20);

    private final Map<Integer, CollectiveLog<R>> logs = new HashMap<>();
    /**
     * The log asked for last: every collective asks twice (its sequence number, then its completion) and a
     * program runs most of them on one communicator, so the map's lookup (boxing, a capturing factory, the
     * hash walk) is mostly skipped.
     */
    private CollectiveLog<R> last;
    private final boolean keeping;
    private final Consumer<R> background;
    private long bytes;

    CollectiveLogs(boolean keeping, Consumer<R> background) {
        this.keeping = keeping;
        this.background = background;
    }

    /** The log of communicator {@code commId} (its id survives repairs). */
    public CollectiveLog<R> of(int commId) {
        CollectiveLog<R> log = last;
        if (log != null && log.commId() == commId) {
            return log;
        }
        log = logs.computeIfAbsent(commId, id -> new CollectiveLog<>(id, this));
        last = log;
        return log;
    }

    /**
     * Whether collectives are logged for replay at all: without replicas a
     * failure ends the job, nothing is ever replayed, and the copy of every
     * collective's input would be pure cost.
     */
    public boolean keepsEntries() {
        return keeping;
    }

    /** Forgets a freed communicator's log. */
    public void forget(int commId) {
        CollectiveLog<R> log = logs.remove(commId);
        if (last != null && last.commId() == commId) {
            last = null;
        }
        if (log != null) {
            bytes -= log.bytes();
        }
    }

    @Override
    public void background(R replay) {
        background.accept(replay);
    }

    @Override
    public boolean account(long delta) {
        bytes += delta;
        return bytes > LIMIT;
    }
}

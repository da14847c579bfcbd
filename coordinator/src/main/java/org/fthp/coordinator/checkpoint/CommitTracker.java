package org.fthp.coordinator.checkpoint;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

import org.fthp.checkpoint.store.Manifest;
import org.fthp.checkpoint.store.PieceEntry;

/**
 * The primary's view of the epochs: which ranks' pieces are held (an epoch commits once all N are, in epoch
 * order), what each rank reported its checkpoint cost to be, and which pieces are on disk (the manifest is written
 * once all N are). Pure logic, not thread-safe: the primary calls it on its I/O thread.
 */
public final class CommitTracker {
    /** How many recent checkpoints the mean cost is taken over. */
    public static final int COST_WINDOW = 3;

    private final int ranks;
    private final TreeMap<Long, Map<Integer, Long>> heldBytes = new TreeMap<>();
    private final TreeMap<Long, Map<Integer, Long>> costNanos = new TreeMap<>();
    private final TreeMap<Long, Map<Integer, PieceEntry>> onDisk = new TreeMap<>();
    private final Deque<Long> recentCostNanos = new ArrayDeque<>();
    /** Epochs whose every rank reported its cost before the epoch committed (the ranks do not wait for commits). */
    private final TreeMap<Long, Long> costBeforeCommit = new TreeMap<>();
    private long lastCommitted = -1;
    /**
     * The first epoch of this incarnation: epochs after the last commit and below it are an earlier
     * incarnation's that never committed, and whatever still arrives for them (a partner copy finishing late) is
     * ignored, lest it commit an epoch that never was the job's and drop the one the restart reads.
     */
    private long firstEpoch;
    private long lastDurable = -1;
    private int commits;

    public CommitTracker(int ranks) {
        this.ranks = ranks;
    }

    /** An epoch every rank's piece of which is held, and their total size. */
    public record Commit(long epoch, long bytes) {
    }

    /** A rank's piece is held; returns the commit if this completes an epoch newer than the last commit. */
    public java.util.Optional<Commit> held(long epoch, int rank, long bytes) {
        if (epoch <= lastCommitted || stale(epoch) || rank >= ranks) {
            return java.util.Optional.empty();
        }
        Map<Integer, Long> held = heldBytes.computeIfAbsent(epoch, e -> new HashMap<>());
        held.put(rank, bytes);
        if (held.size() < ranks) {
            return java.util.Optional.empty();
        }
        lastCommitted = epoch;
        commits++;
        long total = held.values().stream().mapToLong(Long::longValue).sum();
        heldBytes.headMap(epoch, true).clear();
        return java.util.Optional.of(new Commit(epoch, total));
    }

    /** Records a rank's cost; returns the epoch's cost (its slowest rank) once every rank has reported. */
    public OptionalLong cost(long epoch, int rank, long nanos) {
        if (stale(epoch)) {
            return OptionalLong.empty();
        }
        Map<Integer, Long> costs = costNanos.computeIfAbsent(epoch, e -> new HashMap<>());
        costs.merge(rank, nanos, Math::max);
        if (costs.size() < ranks) {
            return OptionalLong.empty();
        }
        costNanos.remove(epoch);
        long slowest = costs.values().stream().mapToLong(Long::longValue).max().orElse(0);
        if (epoch > lastCommitted) {
            costBeforeCommit.put(epoch, slowest);
        }
        recentCostNanos.addLast(slowest);
        while (recentCostNanos.size() > COST_WINDOW) {
            recentCostNanos.removeFirst();
        }
        return OptionalLong.of(slowest);
    }

    /** At an epoch's commit: its cost, if every rank reported it already (then it is not reported again). */
    public OptionalLong costAtCommit(long epoch) {
        Long cost = costBeforeCommit.remove(epoch);
        costBeforeCommit.headMap(epoch).clear();
        return cost == null ? OptionalLong.empty() : OptionalLong.of(cost);
    }

    /** The slowest cost reported so far for an epoch (for an epoch whose reports are incomplete). */
    public OptionalLong partialCost(long epoch) {
        Map<Integer, Long> costs = costNanos.get(epoch);
        return costs == null ? OptionalLong.empty() : costs.values().stream().mapToLong(Long::longValue).max();
    }

    public OptionalDouble meanCostSeconds() {
        return recentCostNanos.stream().mapToLong(Long::longValue).average().stream().map(n -> n / 1e9).findFirst();
    }

    /** Pieces a node wrote; returns the manifest once every rank of the epoch is on disk. */
    public java.util.Optional<Manifest> onDisk(long epoch, List<PieceEntry> pieces) {
        if (epoch <= lastDurable || stale(epoch)) {
            return java.util.Optional.empty();
        }
        Map<Integer, PieceEntry> entries = onDisk.computeIfAbsent(epoch, e -> new HashMap<>());
        for (PieceEntry p : pieces) {
            if (p.rank() < ranks) {
                entries.put(p.rank(), p);
            }
        }
        if (entries.size() < ranks) {
            return java.util.Optional.empty();
        }
        lastDurable = epoch;
        onDisk.headMap(epoch, true).clear();
        List<PieceEntry> ordered = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            ordered.add(entries.get(r));
        }
        return java.util.Optional.of(new Manifest(epoch, ranks, ordered));
    }

    /** Forgets epochs that were not committed (an incarnation ended); keeps commits and cost history. */
    public void forgetUncommitted() {
        heldBytes.clear();
        costNanos.clear();
        costBeforeCommit.clear();
        onDisk.tailMap(lastCommitted, false).clear();
    }

    /**
     * The job is relaunched: the uncommitted epochs are forgotten and, until {@link #startIncarnation}, nothing
     * commits (the restart epoch is being settled on every node).
     */
    public void stopIncarnation() {
        forgetUncommitted();
        firstEpoch = Long.MAX_VALUE;
    }

    /** The relaunched job numbers its checkpoints from {@code first} on (above every epoch any node saw). */
    public void startIncarnation(long first) {
        forgetUncommitted();
        firstEpoch = first;
    }

    /** An epoch of an earlier incarnation that never committed. */
    private boolean stale(long epoch) {
        return epoch > lastCommitted && epoch < firstEpoch;
    }

    public long lastCommitted() {
        return lastCommitted;
    }

    public int commits() {
        return commits;
    }
}

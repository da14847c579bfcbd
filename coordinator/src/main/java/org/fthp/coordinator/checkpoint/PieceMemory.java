package org.fthp.coordinator.checkpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pieces one coordinator holds, by epoch and rank, within a byte bound. Room is reserved when a piece's first
 * chunk arrives (its size is in every chunk), so a piece beyond the bound is refused before it is buffered, and a
 * refusal is an answer the sender sees, never a silent drop. Thread-safe.
 */
public final class PieceMemory {
    /**
     * A held piece: {@code local} when a process of this node put it, false for a partner's copy. The memory owns
     * one reference to its bytes; whoever uses them outside the memory's lock {@link #acquire}s them.
     */
    public record Held(long epoch, int rank, PieceBytes bytes, int crc32c, boolean local) {
    }

    /** What {@link #store} did. */
    public enum Stored { NEW, SAME_AGAIN, DIVERGED }

    private final long limitBytes;
    private final TreeMap<Long, Map<Integer, Held>> byEpoch = new TreeMap<>();
    /**
     * The epoch a relaunched job recovers from (-1: none): kept through the commits of that incarnation, because a
     * commit needs only every rank's computational copy to have written the new epoch, while a replica (or any copy
     * slow to start) may not have fetched its piece of this one yet.
     */
    private long restartEpoch = -1;
    /** The highest epoch {@link #dropBelow} was called with: epochs below it are held only for a restart. */
    private long committedFloor = -1;
    private long reservedBytes;
    private long heldBytes;
    private long peakBytes;

    public PieceMemory(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("memory limit must be > 0: " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /** Reserves room for a piece about to arrive; false (nothing reserved) if it would pass the bound. */
    public synchronized boolean reserve(long bytes) {
        if (heldBytes + reservedBytes + bytes > limitBytes) {
            return false;
        }
        reservedBytes += bytes;
        return true;
    }

    /** Gives back a reservation whose piece will not be stored (refused, broken, duplicate). */
    public synchronized void release(long bytes) {
        reservedBytes = Math.max(0, reservedBytes - bytes);
    }

    /**
     * Stores a piece whose room was reserved (the reservation becomes the piece). A second piece for the same epoch
     * and rank keeps the first: {@link Stored#SAME_AGAIN} if it has the same checksum, {@link Stored#DIVERGED} if not.
     * A local put of a piece held as a partner copy makes it local (its node now has a process of that rank).
     * Unless NEW, the caller still owns {@code piece}'s bytes (and releases them).
     */
    public synchronized Stored store(Held piece) {
        reservedBytes = Math.max(0, reservedBytes - piece.bytes().size());
        Map<Integer, Held> ranks = byEpoch.computeIfAbsent(piece.epoch(), e -> new TreeMap<>());
        Held before = ranks.get(piece.rank());
        if (before == null) {
            ranks.put(piece.rank(), piece);
            heldBytes += piece.bytes().size();
            peakBytes = Math.max(peakBytes, heldBytes);
            return Stored.NEW;
        }
        if (piece.local() && !before.local()) {
            ranks.put(piece.rank(), new Held(before.epoch(), before.rank(), before.bytes(), before.crc32c(), true));
        }
        return before.crc32c() == piece.crc32c() ? Stored.SAME_AGAIN : Stored.DIVERGED;
    }

    public synchronized Optional<Held> get(long epoch, int rank) {
        Map<Integer, Held> ranks = byEpoch.get(epoch);
        return Optional.ofNullable(ranks == null ? null : ranks.get(rank));
    }

    /** As {@link #get}, with its bytes retained: the caller releases them once done. */
    public synchronized Optional<Held> acquire(long epoch, int rank) {
        Optional<Held> h = get(epoch, rank);
        h.ifPresent(held -> held.bytes().retain());
        return h;
    }

    /** Removes one piece (a put whose partner copy failed). */
    public synchronized void remove(long epoch, int rank) {
        Map<Integer, Held> ranks = byEpoch.get(epoch);
        Held gone = ranks == null ? null : ranks.remove(rank);
        if (gone != null) {
            heldBytes -= gone.bytes().size();
            gone.bytes().release();
            if (ranks.isEmpty()) {
                byEpoch.remove(epoch);
            }
        }
    }

    /** The pieces of {@code epoch} that processes of this node put, by rank, retained: the caller releases them. */
    public synchronized List<Held> localPieces(long epoch) {
        List<Held> out = new ArrayList<>();
        Map<Integer, Held> ranks = byEpoch.get(epoch);
        if (ranks != null) {
            for (Held h : ranks.values()) {
                if (h.local()) {
                    h.bytes().retain();
                    out.add(h);
                }
            }
        }
        return out;
    }

    /** Drops every epoch below {@code epoch} (after it commits), except the restart's ({@link #keepForRestart}). */
    public synchronized void dropBelow(long epoch) {
        committedFloor = Math.max(committedFloor, epoch);
        Map<Integer, Held> kept = restartEpoch < epoch ? byEpoch.remove(restartEpoch) : null;
        drop(byEpoch.headMap(epoch, false));
        if (kept != null) {
            byEpoch.put(restartEpoch, kept);
        }
    }

    /**
     * A relaunched job recovers {@code epoch} (-1: none): its pieces stay until the next relaunch, or until their room
     * is needed ({@link #yieldRestartEpoch}), whatever commits meanwhile. Everything older goes now, a previous
     * restart's epoch included.
     */
    public synchronized void keepForRestart(long epoch) {
        restartEpoch = epoch;
        drop(byEpoch.headMap(epoch, false));
    }

    /**
     * Drops the restart's epoch if a newer epoch has committed since (before that it is the newest committed epoch,
     * held anyway) and it still holds pieces: the room goes to a newer checkpoint. Returns the epoch dropped, or -1.
     */
    public synchronized long yieldRestartEpoch() {
        long epoch = restartEpoch;
        if (epoch < 0 || epoch >= committedFloor || !byEpoch.containsKey(epoch)) {
            return -1;
        }
        restartEpoch = -1;
        drop(byEpoch.subMap(epoch, true, epoch, true));
        return epoch;
    }

    public synchronized long restartEpoch() {
        return restartEpoch;
    }

    /** Drops every epoch above {@code epoch} (pieces of an incarnation that ended before committing them). */
    public synchronized void dropAbove(long epoch) {
        drop(byEpoch.tailMap(epoch, false));
    }

    private void drop(Map<Long, Map<Integer, Held>> epochs) {
        for (Map<Integer, Held> ranks : epochs.values()) {
            for (Held h : ranks.values()) {
                heldBytes -= h.bytes().size();
                h.bytes().release();
            }
        }
        epochs.clear();
    }

    /** Drops every piece (the coordinator is closing). */
    public synchronized void clear() {
        drop(byEpoch);
    }

    public synchronized long heldBytes() {
        return heldBytes;
    }

    public synchronized long peakBytes() {
        return peakBytes;
    }

    public long limitBytes() {
        return limitBytes;
    }

    public synchronized List<Long> epochs() {
        return List.copyOf(byEpoch.keySet());
    }
}

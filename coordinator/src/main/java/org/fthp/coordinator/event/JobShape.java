package org.fthp.coordinator.event;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;

/**
 * How many copies each logical rank has, which is all the primary needs to decide that the job cannot go on:
 * logical ranks {@code 0..replicated-1} run as a computational copy plus a replica, the rest as a single copy.
 * With {@code replicated == 0} every rank has one copy, so any failure loses a rank.
 *
 * @param logicalRanks N, the application's world size
 * @param replicated   M, how many of the logical ranks (the lowest) have a replica
 */
public record JobShape(int logicalRanks, int replicated) {
    public JobShape {
        if (logicalRanks <= 0 || replicated < 0 || replicated > logicalRanks) {
            throw new IllegalArgumentException("need N > 0 and 0 <= M <= N, got N=" + logicalRanks + " M=" + replicated);
        }
    }

    public int copiesOf(int logicalRank) {
        return logicalRank < replicated ? 2 : 1;
    }

    /** The lowest logical rank all of whose copies are in {@code failed}, if any (see {@link #lostRanks}). */
    public OptionalInt firstLostRank(Collection<FailedProcess> failed) {
        List<Integer> lost = lostRanks(failed);
        return lost.isEmpty() ? OptionalInt.empty() : OptionalInt.of(lost.get(0));
    }

    /**
     * Every logical rank all of whose copies are in {@code failed}, lowest first (a whole host can take several).
     * Copies are counted by native process, so a duplicate report of the same copy cannot make a replicated rank
     * look lost, and two processes that held the same role in turn (a spare that restored a replica, then died
     * after the rank's promoted replica) are two copies. Plain loops, no stream: the primary asks this on every
     * failure, on the cores the survivors repair on, and a stream's first sort would load its classes there.
     */
    public List<Integer> lostRanks(Collection<FailedProcess> failed) {
        Map<Integer, Set<Integer>> deadCopies = new TreeMap<>();
        for (FailedProcess p : failed) {
            if (p.role() == Role.SPARE) {
                continue;   // a spare holds no rank: losing it loses none
            }
            Set<Integer> natives = deadCopies.get(p.logicalRank());
            if (natives == null) {
                natives = new HashSet<>(4);
                deadCopies.put(p.logicalRank(), natives);
            }
            natives.add(p.nativeRank());
        }
        List<Integer> lost = new ArrayList<>();
        for (Map.Entry<Integer, Set<Integer>> e : deadCopies.entrySet()) {
            if (e.getValue().size() >= copiesOf(e.getKey())) {
                lost.add(e.getKey());
            }
        }
        return List.copyOf(lost);
    }
}

package org.fthp.coordinator.event;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

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

    /**
     * The lowest logical rank all of whose copies are in {@code failed}, if any. Copies are counted by role, so a
     * duplicate report of the same copy cannot make a replicated rank look lost.
     */
    public OptionalInt firstLostRank(Collection<FailedProcess> failed) {
        List<Integer> lost = lostRanks(failed);
        return lost.isEmpty() ? OptionalInt.empty() : OptionalInt.of(lost.get(0));
    }

    /** Every logical rank all of whose copies are in {@code failed}, lowest first (a whole host can take several). */
    public List<Integer> lostRanks(Collection<FailedProcess> failed) {
        Map<Integer, Set<Role>> deadCopies = new HashMap<>();
        for (FailedProcess p : failed) {
            deadCopies.computeIfAbsent(p.logicalRank(), k -> new HashSet<>()).add(p.role());
        }
        return deadCopies.entrySet().stream()
                .filter(e -> e.getValue().size() >= copiesOf(e.getKey()))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }
}

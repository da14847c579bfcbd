package org.fthp.coordinator.node;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The primary's tally of UNOWNED_PID claims: for each pid the launcher's proxy reported dead, which node
 * coordinators said that no process with that pid registered with them. When every node that receives the
 * proxy's reports has said so, nobody owns the pid: the process died before it registered. Not thread-safe:
 * the primary calls it under its lock.
 */
final class UnownedPidVotes {
    private final int voters;
    private final Map<Long, Set<Integer>> votes = new HashMap<>();

    /** @param voters how many node coordinators receive every proxy report */
    UnownedPidVotes(int voters) {
        this.voters = voters;
    }

    /** Counts {@code nodeId}'s claim; true exactly once per pid, when the last of the voters has claimed it. */
    boolean vote(long pid, int nodeId) {
        Set<Integer> nodes = votes.computeIfAbsent(pid, p -> new HashSet<>());
        return nodes.add(nodeId) && nodes.size() == voters;
    }
}

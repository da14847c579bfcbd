package org.fthp.coordinator.node;

import java.util.OptionalInt;

/**
 * Who reports to whom. Nodes {@code 0..nodeCount-1} are cut into consecutive groups of {@code groupSize}; the
 * first node of a group is its leader; node 0 (leader of group 0) is the primary. A member's parent is its
 * leader, a leader's parent is the primary, the primary has none. So a failure crosses at most two hops up and
 * two down, and the primary holds one connection per group rather than one per node.
 */
public record HierarchyLayout(int nodeCount, int groupSize) {
    public static final int PRIMARY = 0;

    public HierarchyLayout {
        if (nodeCount <= 0 || groupSize <= 0) {
            throw new IllegalArgumentException("need nodeCount > 0 and groupSize > 0");
        }
    }

    public int leaderOf(int node) {
        check(node);
        return node / groupSize * groupSize;
    }

    public boolean isLeader(int node) {
        return leaderOf(node) == node;
    }

    public OptionalInt parentOf(int node) {
        if (node == PRIMARY) {
            check(node);
            return OptionalInt.empty();
        }
        return OptionalInt.of(isLeader(node) ? PRIMARY : leaderOf(node));
    }

    /** Whether {@code child} is allowed to register with {@code parent}: the tree is fixed, not self-declared. */
    public boolean isChildOf(int child, int parent) {
        return child >= 0 && child < nodeCount && parentOf(child).orElse(-1) == parent;
    }

    private void check(int node) {
        if (node < 0 || node >= nodeCount) {
            throw new IllegalArgumentException("node " + node + " outside 0.." + (nodeCount - 1));
        }
    }
}

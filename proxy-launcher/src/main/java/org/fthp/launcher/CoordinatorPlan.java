package org.fthp.launcher;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The coordinator hierarchy a job gets: {@code nodes} node coordinators
 * (emulated nodes are blocks of ranks), grouped {@code groupSize} to a leader,
 * and where the primary writes its event log.
 */
public record CoordinatorPlan(int nodes, int groupSize, Optional<Path> events) {

    public static final CoordinatorPlan NONE = new CoordinatorPlan(0, 0, Optional.empty());

    public boolean wanted() {
        return nodes > 0;
    }

    /** About the square root of the node count: two short hops from any node to the primary. */
    static int defaultGroupSize(int nodes) {
        return Math.max(1, (int) Math.ceil(Math.sqrt(nodes)));
    }
}

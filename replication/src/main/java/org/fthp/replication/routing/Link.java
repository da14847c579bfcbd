package org.fthp.replication.routing;

/**
 * The native communicator a point-to-point message travels on, among the six
 * of docs/DESIGN.md §5. Ranks in a {@link Route} are ranks in that
 * communicator (for an intercommunicator: in the remote group).
 */
public enum Link {
    /** Among computational copies; rank = logical rank. */
    CMP,
    /** Among replicas; rank = position among replicated logical ranks. */
    REP,
    /**
     * From computational copies without a replica to the replicas, on the communicator of one process per member
     * (the replica where there is one); rank = logical rank.
     */
    CMP_NO_REP_TO_REP,
    /** The same communicator seen from a replica; rank = logical rank. */
    REP_FROM_CMP_NO_REP
}

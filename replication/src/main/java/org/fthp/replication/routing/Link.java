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
    /** From computational copies without a replica to the replicas; remote rank = REP rank. */
    CMP_NO_REP_TO_REP,
    /** Seen from a replica: remote rank = position among non-replicated logical ranks. */
    REP_FROM_CMP_NO_REP
}

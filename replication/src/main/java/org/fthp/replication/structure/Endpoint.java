package org.fthp.replication.structure;

/**
 * Where one native message of a point-to-point operation goes or comes from:
 * a native communicator of the structure, its internal twin (a large
 * payload's second message, and the facade's own traffic), and the peer's
 * rank in it (for an intercommunicator: in the remote group).
 */
public record Endpoint(long comm, long internal, int rank) {

    /** The native communicator a channel's traffic takes on this route. */
    public long comm(Channel channel) {
        return channel == Channel.USER ? comm : internal;
    }
}

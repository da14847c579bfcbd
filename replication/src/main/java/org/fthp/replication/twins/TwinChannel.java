package org.fthp.replication.twins;

import org.fthp.coordinator.event.Role;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.tags.InternalTags;

/**
 * Where a computational copy and its replica exchange one communicator's
 * decisions: COMM_WORLD's twin communicator (a duplicate of its eworld, made
 * with the nonblocking MPI_Comm_idup), shared by every communicator of the
 * pair, each in its own slice of the tag space.
 *
 * <p>Sharing it is what keeps a program's communicator creation one-sided:
 * a communicator of its own between the twins would need a native
 * creation spanning both sides, and a death inside such a blocking call
 * wedges every copy of every member (Open MPI 4.1 cannot abandon it). Made
 * over one side only, a death wedges one copy per rank and the other copies
 * carry on.
 *
 * @param comm     the twin communicator (a COMM_WORLD structure's; it is never freed)
 * @param twinRank the twin's rank in it
 * @param slot     this communicator's slice of the tags; twins number their communicators alike (TwinSlots)
 */
public record TwinChannel(long comm, int twinRank, int slot) {

    /** Slots stay below 2^10 so a tag stays below 2^30 (InternalTags.TWIN_DECISIONS). */
    public static final int SLOTS = InternalTags.TWIN_SLOTS;

    public TwinChannel {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("twin slot " + slot + " out of 0.." + (SLOTS - 1));
        }
    }

    /**
     * This process's channel on a COMM_WORLD structure whose twin communicator is {@code twins}, ranked as its
     * eworld: the computational copies in member order, then the replicas in replica order. Null when this copy
     * has no twin.
     */
    public static TwinChannel ofWorld(long twins, ReplicaLayout members, int self, Role role) {
        if (role == Role.CMP && !members.hasReplica(self)) {
            return null;
        }
        return new TwinChannel(twins, role == Role.CMP ? members.size() + members.repRank(self) : self, 0);
    }

    /** The same path for another communicator. */
    public TwinChannel withSlot(int other) {
        return new TwinChannel(comm, twinRank, other);
    }

    /**
     * The native tag of decision {@code decision}. The number wraps after
     * 2^20 decisions of one communicator; a wrapped tag could only take the
     * wrong message if the replica had left a million of its twin's messages
     * unreceived, far more than the twin log keeps (TwinRecords).
     */
    int wireTag(int decision) {
        return InternalTags.twinDecision(slot, decision);
    }
}

package org.fthp.replication.structure;

import java.util.List;

import org.fthp.coordinator.event.Role;
import org.fthp.msglog.SendSequence;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.routing.Route;
import org.fthp.replication.twins.TwinLink;
import org.fthp.replication.twins.TwinRecords;

/**
 * Everything behind one user communicator: its logical membership (what the
 * program sees), the native communicators of docs/DESIGN.md §5, and the routes
 * point-to-point messages take between copies (§6), precomputed per peer so
 * a send or receive looks its route up without allocating.
 *
 * <p>Point-to-point traffic is numbered in a "member space": the members of
 * an intracommunicator in rank order, or, for an intercommunicator, both
 * groups (the group holding the lower COMM_WORLD rank first), so the same
 * six communicators serve both kinds. Membership is kept as logical ranks of
 * COMM_WORLD so the structure can be rebuilt from it after a failure.
 */
public final class CommStructure {

    private final int commId;
    private final int logicalRank;
    private final int[] worldRanks;
    private final int[] remoteWorldRanks;
    private final Role role;
    private final NativeComms natives;
    private final Endpoint[] sendPrimary;
    private final Endpoint[] sendExtra;
    private final Endpoint[] receive;
    private final Endpoint receiveAny;
    private final TwinLink twin;
    private final int peerOffset;
    /** {@link #peers}: every point-to-point call checks its rank against it. */
    private final int peers;
    private final LogicalState state;
    private final ArrivedMessages arrived = new ArrivedMessages();
    /** After a repair: the structure over the new native communicators. */
    private volatile CommStructure successor;
    /** After a repair: what each copy this one sends to had already consumed (null: nothing to skip). */
    private ConsumedRecord[] skipPrimary;
    private ConsumedRecord[] skipExtra;

    /**
     * @param members     the member-space layout (which members have a live replica)
     * @param self        this process's index in the member space
     * @param peerOffset  member-space index of peer rank 0 (0 for an intracommunicator)
     */
    public CommStructure(int commId, int logicalRank, int[] worldRanks, int[] remoteWorldRanks, Role role,
                         ReplicaLayout members, int self, int peerOffset, NativeComms natives) {
        this(null, commId, logicalRank, worldRanks, remoteWorldRanks, role, members, self, peerOffset, natives);
    }

    /**
     * The structure of the same communicator over new native communicators
     * (after a repair): numbering and twin records carry over from {@code predecessor}.
     */
    public CommStructure(CommStructure predecessor, int commId, int logicalRank, int[] worldRanks,
                         int[] remoteWorldRanks, Role role, ReplicaLayout members, int self, int peerOffset,
                         NativeComms natives) {
        this.commId = commId;
        this.logicalRank = logicalRank;
        this.worldRanks = worldRanks;
        this.remoteWorldRanks = remoteWorldRanks;
        this.role = role;
        this.natives = natives;
        this.peerOffset = peerOffset;
        int peers = remoteWorldRanks != null ? remoteWorldRanks.length : worldRanks.length;
        this.peers = peers;
        this.state = predecessor != null ? predecessor.state : new LogicalState(peers);
        if (predecessor != null) {
            arrived.carryOver(predecessor.arrived);
        }
        this.sendPrimary = new Endpoint[peers];
        this.sendExtra = new Endpoint[peers];
        this.receive = new Endpoint[peers];
        for (int p = 0; p < peers; p++) {
            int u = peerOffset + p;
            List<Route> out = members.sendRoutes(self, u, role);
            sendPrimary[p] = out.isEmpty() ? null : endpoint(out.get(0));
            sendExtra[p] = out.size() < 2 ? null : endpoint(out.get(1));
            receive[p] = endpoint(members.receiveRoute(u, self, role));
        }
        this.receiveAny = role == Role.CMP ? new Endpoint(natives.cmp(), natives.cmpInternal(), -1) : null;
        this.twin = natives.twin() == null ? null : new TwinLink(commId, natives.twin(), role, state.twinRecords);
    }

    private Endpoint endpoint(Route r) {
        return switch (r.link()) {
            case CMP -> new Endpoint(natives.cmp(), natives.cmpInternal(), r.peer());
            case REP -> new Endpoint(natives.rep(), natives.repInternal(), r.peer());
            case CMP_NO_REP_TO_REP, REP_FROM_CMP_NO_REP ->
                    new Endpoint(natives.noRepToRep(), natives.noRepToRepInternal(), r.peer());
        };
    }

    public int commId() { return commId; }

    /** All live copies of the members. */
    public long eworld() { return natives.eworld(); }

    /** Where collectives run among the computational copies (0 on a replica: it gets their results). */
    public long cmp() { return natives.collective(); }

    /** Internal twin of the computational copies' communicator: the facade's own collective traffic. */
    public long internal() { return natives.cmpInternal(); }

    public NativeComms natives() { return natives; }

    public Role role() { return role; }

    /** The link to this process's twin, or null when it has none. */
    public TwinLink twin() { return twin; }

    /**
     * The number of this communicator's next twin decision, or -1 when
     * nobody numbers it: no twin, and no decision inherited from a dead one
     * (then the promoted copy numbers every decision point as its twin did,
     * to find the inherited ones).
     */
    public int nextDecisionTag() {
        if (twin != null) {
            return twin.nextTag();
        }
        return state.twinRecords.inherits() ? state.twinRecords.nextDecision() & TwinLink.TAG_MASK : -1;
    }

    /** Whether this process is a replica, which takes timing-dependent outcomes from its twin. */
    public boolean follows() { return twin != null && twin.follows(); }

    public int rank() { return logicalRank; }
    public int size() { return worldRanks.length; }
    public boolean isInter() { return remoteWorldRanks != null; }
    public int remoteSize() { return remoteWorldRanks == null ? 0 : remoteWorldRanks.length; }

    /** Ranks a point-to-point rank argument, or a collective's per-peer block, refers to (the remote group's). */
    public int peers() { return peers; }

    /** Logical COMM_WORLD ranks of the (local) members, in communicator rank order. */
    public int[] worldRanks() { return worldRanks.clone(); }

    public int[] remoteWorldRanks() { return remoteWorldRanks == null ? null : remoteWorldRanks.clone(); }

    /** The native message to the peer's computational copy, or null when this copy only logs the message. */
    public Endpoint sendPrimary(int peer) { return sendPrimary[peer]; }

    /** A second native message, to the peer's replica, or null (sent by computational copies without one). */
    public Endpoint sendExtra(int peer) { return sendExtra[peer]; }

    /** Where this copy receives the peer's messages. */
    public Endpoint receiveFrom(int peer) { return receive[peer]; }

    /** The peer rank of a computational copy's rank in the computational copies' communicator. */
    public int peerOfCmpRank(int cmpRank) { return cmpRank - peerOffset; }

    /** Where a computational copy receives from any source; null on a replica, which never guesses. */
    public Endpoint receiveAny() { return receiveAny; }

    public SendSequence sendIds() { return state.sendIds; }

    /** The structure that replaced this one at a repair, or null while it is current. */
    public CommStructure successor() { return successor; }

    /** This communicator's structure now: this one, or what repairs replaced it with. */
    public CommStructure current() {
        CommStructure s = this;
        while (s.successor != null) {
            s = s.successor;
        }
        return s;
    }

    public void replacedBy(CommStructure next) {
        this.successor = next;
    }

    /** Twin decisions and forwards, whichever native link carries them now. */
    public TwinRecords twinRecords() { return state.twinRecords; }

    /**
     * A copy this structure sends to had already consumed messages this
     * process has not sent yet (it got them from a twin that was ahead):
     * those are only logged, never sent to it again.
     */
    public void skipConsumed(int peer, boolean extra, ConsumedRecord record) {
        ConsumedRecord[] table = extra ? skipExtra : skipPrimary;
        if (table == null) {
            table = new ConsumedRecord[sendPrimary.length];
            if (extra) {
                skipExtra = table;
            } else {
                skipPrimary = table;
            }
        }
        table[peer] = record;
    }

    /** Whether the copy behind {@code peer}'s primary (or extra) route already has message {@code sendId}. */
    public boolean alreadyHas(int peer, boolean extra, long sendId) {
        ConsumedRecord[] table = extra ? skipExtra : skipPrimary;
        return table != null && table[peer] != null && table[peer].has(sendId);
    }

    /** Messages taken out of the native library (by a probe) that the program has not received yet. */
    public ArrivedMessages arrived() { return arrived; }

    /**
     * A communicator id for the next communicator derived from this one. Every
     * member derives communicators in the same order, so all agree on it.
     */
    public int nextChildId() {
        long x = ((long) commId << 32) ^ ++state.childSequence;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        int id = (int) x & 0x7fffffff;
        return id < 16 ? id + 16 : id;
    }
}

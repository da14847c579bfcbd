package org.fthp.replication.structure;

import java.lang.foreign.MemorySegment;

import org.fthp.empi.Empi;
import org.fthp.replication.routing.Role;

/**
 * The native path between a computational copy and its replica on one
 * communicator (its CMP_REP_INTERCOMM): what the computational copy decides
 * (a wildcard's match, a test's flag, a collective's result) travels here to
 * the replica.
 *
 * <p>Both twins make the same calls in the same order, so each numbers what it
 * forwards or awaits with the same sequence, and that number is in the native
 * tag (TwinChannel): a replica matches the right decision even when its twin
 * forwards them in another order than they were asked for.
 */
public final class TwinLink {

    /** Decision numbers stay non-negative; the wire keeps their low bits (TwinChannel). */
    private static final int TAG_MASK = 0x3fffffff;

    /** Told how far a replica has received its twin's decisions, so the twin can drop them from its log. */
    @FunctionalInterface
    public interface Acknowledger {
        void received(int commId, long through);
    }

    private static Acknowledger acknowledger;

    private final int commId;
    private final TwinChannel channel;
    private final Role role;
    private final LogicalState state;

    TwinLink(int commId, TwinChannel channel, Role role, LogicalState state) {
        this.commId = commId;
        this.channel = channel;
        this.role = role;
        this.state = state;
    }

    public TwinChannel channel() { return channel; }

    /** Sends decision {@code decision} ({@code data}, all of it) to the twin. */
    public void isend(MemorySegment data, int decision, MemorySegment request) {
        Empi.isend(data, (int) data.byteSize(), Empi.BYTE, channel.twinRank(), channel.wireTag(decision),
                channel.comm(), request);
    }

    /** Receives decision {@code decision} from the twin into {@code into} (at most its size). */
    public void irecv(MemorySegment into, int decision, MemorySegment request) {
        Empi.irecv(into, (int) into.byteSize(), Empi.BYTE, channel.twinRank(), channel.wireTag(decision),
                channel.comm(), request);
    }

    /** Whether this side follows (receives decisions) rather than decides. */
    public boolean follows() { return role == Role.REP; }

    /** The tag of the next decision forwarded or awaited on this communicator. */
    public int nextTag() {
        return state.twinSequence++ & TAG_MASK;
    }

    /** The computational copy forwarded {@code data} as decision {@code tag}: kept until the replica has it. */
    public void forwarded(int tag, MemorySegment data) {
        state.twinRecords.forwarded(tag, data);
    }

    /** Set once, at start-up of a replicated job: where a replica's received decisions are acknowledged. */
    public static void acknowledgeWith(Acknowledger a) {
        acknowledger = a;
    }

    /** The replica received decision {@code tag}. */
    public void received(int tag) {
        TwinRecords records = state.twinRecords;
        records.received(tag);
        Acknowledger a = acknowledger;
        if (a != null) {
            a.received(commId, records.receivedThrough());
        }
    }

    public TwinRecords records() {
        return state.twinRecords;
    }
}

package org.fthp.replication.twins;

import java.lang.foreign.MemorySegment;

import org.fthp.coordinator.event.Role;
import org.fthp.empi.Empi;

/**
 * The native path between a computational copy and its replica on one
 * communicator (COMM_WORLD's twin communicator): what the computational copy decides
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
    public static final int TAG_MASK = 0x3fffffff;

    /** Told how far a replica has received its twin's decisions, so the twin can drop them from its log. */
    @FunctionalInterface
    public interface Acknowledger {
        void received(int commId, long through);
    }

    private final int commId;
    private final TwinChannel channel;
    private final Role role;
    /** Carried across repairs with the communicator: the decisions numbered and kept so far. */
    private final TwinRecords records;

    public TwinLink(int commId, TwinChannel channel, Role role, TwinRecords records) {
        this.commId = commId;
        this.channel = channel;
        this.role = role;
        this.records = records;
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
        return records.nextDecision() & TAG_MASK;
    }

    /** The computational copy forwarded {@code data} as decision {@code tag}: kept until the replica has it. */
    public void forwarded(int tag, MemorySegment data) {
        records.forwarded(tag, data);
    }

    /** The replica received decision {@code tag}; returns through which decision it has them all (to acknowledge). */
    public long received(int tag) {
        records.received(tag);
        return records.receivedThrough();
    }

    /** The communicator whose decisions travel here. */
    public int commId() {
        return commId;
    }

    public TwinRecords records() {
        return records;
    }
}

package org.fthp.replication.repair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.fthp.empi.Empi;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.tags.InternalTags;
import org.fthp.replication.twins.TwinChannel;

/**
 * On a replica, before a rebuild abandons its twin channel: the decisions its
 * twin had sent and it had not taken yet are in that channel. While the twin
 * lives it sends them again (the records exchange tells it what is missing),
 * but if it dies first, or has died now, the promoted copy must replay them
 * rather than decide anew: the twin may already have sent messages that
 * depend on them (a wildcard receive's match decides what a rank answers).
 * So for every communicator the rebuild moves to the new channel, its
 * decisions are taken off the old one and kept by number
 * ({@code TwinRecords#inherit}), used only once this copy is promoted and
 * dropped as their numbers pass. Local calls only: a probed message is
 * already here.
 */
final class TwinDecisionDrain {

    /** The largest twin message worth keeping: a decision (a collective's forwarded result is run again instead). */
    private static final int MAX_DECISION_BYTES = 1024;

    /** Decision numbers the twin may have sent ahead of this copy; a run this long of absent ones ends the scan. */
    private static final int DECISION_SCAN_GAP = 256;

    /** How long a matched small message may take to be received (it is here already: never in practice). */
    private static final long RECEIVE_NANOS = 10_000_000L;

    private TwinDecisionDrain() {
    }

    /**
     * Keeps the decisions waiting on the twin channels of {@code moved} (the
     * operations in flight must have been progressed once before, so one
     * whose receive had matched its decision took it); returns how many.
     */
    static int keep(List<CommStructure> moved) {
        Arena arena = Arena.ofConfined();
        int kept = 0;
        boolean settled = true;
        for (CommStructure s : moved) {
            int n = drain(s, arena);
            if (n < 0) {
                settled = false;
                kept += -1 - n;
                break;
            }
            kept += n;
        }
        if (settled) {
            arena.close();
        }
        return kept;
    }

    /**
     * Takes {@code s}'s decisions off its twin channel, by number from the
     * next one this copy would take (a forwarded outcome goes as its
     * operation completes, so a few may come out of order: the scan ends
     * after {@link #DECISION_SCAN_GAP} absent numbers); returns how many it
     * kept, or {@code -1 - kept} when a receive did not complete (then it
     * still points into {@code arena}, which must stay allocated).
     */
    private static int drain(CommStructure s, Arena arena) {
        TwinChannel channel = s.twin().channel();
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = arena.allocate(Empi.STATUS_BYTES);
        MemorySegment message = Empi.allocateHandles(arena, 1);
        MemorySegment request = Empi.allocateHandles(arena, 1);
        MemorySegment scratch = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment data = arena.allocate(MAX_DECISION_BYTES);
        int kept = 0;
        for (int n = s.twinRecords().nextDecisionPeek(), absent = 0; absent < DECISION_SCAN_GAP; n++) {
            int tag = InternalTags.twinDecision(channel.slot(), n);
            Empi.iprobe(channel.twinRank(), tag, channel.comm(), flag, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                absent++;
                continue;
            }
            absent = 0;
            int bytes = Empi.statusBytes(status, 0, scratch);
            if (bytes > MAX_DECISION_BYTES) {
                continue; // a collective's result: left with the abandoned channel, the collective runs again
            }
            Empi.improbe(channel.twinRank(), tag, channel.comm(), flag, message, status);
            Empi.imrecv(data, bytes, Empi.BYTE, message, request);
            if (!completedWithin(request, flag, status)) {
                return -1 - kept; // never for a matched small message; the channel is abandoned anyway
            }
            s.twinRecords().inherit(n & ((1 << InternalTags.TWIN_DECISION_BITS) - 1),
                    data.asSlice(0, bytes).toArray(ValueLayout.JAVA_BYTE));
            kept++;
        }
        return kept;
    }

    private static boolean completedWithin(MemorySegment request, MemorySegment flag, MemorySegment status) {
        long end = System.nanoTime() + RECEIVE_NANOS;
        while (!BlobExchange.completed(request, flag, status)) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}

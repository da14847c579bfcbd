package org.fthp.replication.repair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fthp.empi.Empi;
import org.fthp.replication.progress.BusySpinIdleStrategy;
import org.fthp.replication.progress.DutyCycle;
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
 *
 * <p>The twin's messages are taken in the order they came, one probe for any
 * tag each, as long as they belong to the moved communicators; only when a
 * message of a communicator that keeps the channel heads it are the rest
 * looked up by number. (Looking up by number alone is slow: every probe of
 * an absent number is a pass of the library's progress engine, and the scan
 * only ends after 256 of them, while every other survivor waits for it in
 * the next readiness round.)
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
        Probe probe = new Probe(arena);
        int kept = 0;
        boolean settled = true;
        // the communicators sharing one channel (an untouched communicator may keep an older one)
        Map<List<Long>, Map<Integer, CommStructure>> byChannel = new LinkedHashMap<>();
        for (CommStructure s : moved) {
            TwinChannel c = s.twin().channel();
            byChannel.computeIfAbsent(List.of(c.comm(), (long) c.twinRank()), k -> new HashMap<>()).put(c.slot(), s);
        }
        for (Map<Integer, CommStructure> bySlot : byChannel.values()) {
            int n = drainInOrder(bySlot, probe);
            if (n < 0) {
                settled = false;
                kept += -1 - n;
                break;
            }
            kept += n;
            if (probe.foreign) {
                // another communicator's message heads the channel: what lies behind it is found by number
                for (CommStructure s : bySlot.values()) {
                    n = drainByNumber(s, probe);
                    if (n < 0) {
                        settled = false;
                        kept += -1 - n;
                        break;
                    }
                    kept += n;
                }
                if (!settled) {
                    break;
                }
            }
        }
        if (settled) {
            arena.close();
        }
        return kept;
    }

    /** The native memory of the probes and receives, and what the in-order pass left to the scan by number. */
    private static final class Probe {
        final MemorySegment flag;
        final MemorySegment status;
        final MemorySegment message;
        final MemorySegment request;
        final MemorySegment scratch;
        final MemorySegment data;
        final Arena arena;
        /** Set when the in-order pass stopped at a message of a communicator the rebuild leaves alone. */
        boolean foreign;
        /** Decision numbers (low bits) the in-order pass took, by slot: the scan by number counts them present. */
        final Map<Integer, java.util.Set<Integer>> taken = new HashMap<>();

        Probe(Arena arena) {
            this.arena = arena;
            flag = arena.allocate(ValueLayout.JAVA_INT);
            status = arena.allocate(Empi.STATUS_BYTES);
            message = Empi.allocateHandles(arena, 1);
            request = Empi.allocateHandles(arena, 1);
            scratch = arena.allocate(ValueLayout.JAVA_INT);
            data = arena.allocate(MAX_DECISION_BYTES);
        }

        boolean present() {
            return flag.get(ValueLayout.JAVA_INT, 0) != 0;
        }
    }

    /**
     * Takes the twin's messages off one channel in the order they came (one
     * probe for any tag each, so an empty channel costs one probe rather than
     * a scan of {@link #DECISION_SCAN_GAP} numbers, each a pass of the
     * library's progress engine), while they belong to the communicators of
     * {@code bySlot}; stops at the first of another communicator (which keeps
     * that channel: {@code probe.foreign}) or when none is left. A
     * collective's forwarded result is received and dropped (the collective
     * runs again), as is a decision numbered before the next this copy would
     * take (its operation completed). Returns as {@link #drainByNumber}.
     */
    private static int drainInOrder(Map<Integer, CommStructure> bySlot, Probe p) {
        TwinChannel channel = bySlot.values().iterator().next().twin().channel();
        int kept = 0;
        while (true) {
            Empi.iprobe(channel.twinRank(), Empi.ANY_TAG, channel.comm(), p.flag, p.status);
            if (!p.present()) {
                return kept;
            }
            int tag = Empi.statusTag(p.status, 0);
            CommStructure s = bySlot.get(tag >>> InternalTags.TWIN_DECISION_BITS);
            if (s == null) {
                p.foreign = true;
                return kept;
            }
            int bytes = Empi.statusBytes(p.status, 0, p.scratch);
            MemorySegment into = bytes > MAX_DECISION_BYTES ? p.arena.allocate(bytes) : p.data;
            Empi.improbe(channel.twinRank(), tag, channel.comm(), p.flag, p.message, p.status);
            Empi.imrecv(into, bytes, Empi.BYTE, p.message, p.request);
            if (!completedWithin(p.request, p.flag, p.status)) {
                return -1 - kept;
            }
            int low = tag & LOW_MASK;
            int ahead = (low - s.twinRecords().nextDecisionPeek()) & LOW_MASK;
            if (bytes <= MAX_DECISION_BYTES && ahead < (LOW_MASK + 1) / 2) {
                s.twinRecords().inherit(low, into.asSlice(0, bytes).toArray(ValueLayout.JAVA_BYTE));
                p.taken.computeIfAbsent(s.twin().channel().slot(), k -> new java.util.HashSet<>()).add(low);
                kept++;
            }
        }
    }

    private static final int LOW_MASK = (1 << InternalTags.TWIN_DECISION_BITS) - 1;

    /**
     * Takes {@code s}'s decisions off its twin channel, by number from the
     * next one this copy would take (a forwarded outcome goes as its
     * operation completes, so a few may come out of order: the scan ends
     * after {@link #DECISION_SCAN_GAP} absent numbers; one the in-order pass
     * took counts as present); returns how many it kept, or {@code -1 - kept}
     * when a receive did not complete (then it still points into the probe's
     * arena, which must stay allocated).
     */
    private static int drainByNumber(CommStructure s, Probe p) {
        TwinChannel channel = s.twin().channel();
        java.util.Set<Integer> taken = p.taken.getOrDefault(channel.slot(), java.util.Set.of());
        int kept = 0;
        for (int n = s.twinRecords().nextDecisionPeek(), absent = 0; absent < DECISION_SCAN_GAP; n++) {
            int tag = InternalTags.twinDecision(channel.slot(), n);
            Empi.iprobe(channel.twinRank(), tag, channel.comm(), p.flag, p.status);
            if (!p.present()) {
                if (taken.contains(n & LOW_MASK)) {
                    absent = 0;
                } else {
                    absent++;
                }
                continue;
            }
            absent = 0;
            int bytes = Empi.statusBytes(p.status, 0, p.scratch);
            if (bytes > MAX_DECISION_BYTES) {
                continue; // a collective's result: left with the abandoned channel, the collective runs again
            }
            Empi.improbe(channel.twinRank(), tag, channel.comm(), p.flag, p.message, p.status);
            Empi.imrecv(p.data, bytes, Empi.BYTE, p.message, p.request);
            if (!completedWithin(p.request, p.flag, p.status)) {
                return -1 - kept; // never for a matched small message; the channel is abandoned anyway
            }
            s.twinRecords().inherit(n & LOW_MASK, p.data.asSlice(0, bytes).toArray(ValueLayout.JAVA_BYTE));
            kept++;
        }
        return kept;
    }

    /** Whether the receive of a matched message completes within {@link #RECEIVE_NANOS} (it is on its way). */
    private static boolean completedWithin(MemorySegment request, MemorySegment flag, MemorySegment status) {
        return DutyCycle.awaitUntil(() -> BlobExchange.completed(request, flag, status),
                System.nanoTime() + RECEIVE_NANOS, DutyCycle::noWork, new BusySpinIdleStrategy());
    }
}

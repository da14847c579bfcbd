package org.fthp.replication.tags;

import java.util.List;

import org.fthp.replication.twins.TwinSlots;

/**
 * Every native tag the engine uses for its own messages, in one place, so
 * that the ranges sharing a communicator are disjoint by construction and
 * checked (InternalTagsTest) rather than by comments in eight files.
 *
 * <p>Three kinds of communicator carry the engine's own messages
 * (docs/DESIGN.md §16):
 * <ul>
 *   <li>{@link Space#CONTROL}: the engine's control communicator, a
 *       private duplicate of the native COMM_WORLD and a new one at each
 *       rollback in place (repair agreement and readiness, Finalize,
 *       communicator creation rounds, acknowledgements);
 *   <li>{@link Space#INTERNAL}: each communicator's internal twin, next to
 *       the program's own traffic (neighbourhood collectives, the
 *       intercommunicator leaders' exchange, small allreduces, the payloads
 *       of large messages), so a program's {@code ANY_TAG} receive never takes
 *       one of them;
 *   <li>{@link Space#TWIN}: COMM_WORLD's twin communicator, where every
 *       communicator's twin decisions travel, each in its own slot;
 *   <li>{@link Space#PEER}: the tags of the engine's own
 *       {@code MPI_Intercomm_create} calls on their peer communicator;
 *   <li>{@link Space#WORLD}: the native COMM_WORLD, which carries the tags
 *       of the engine's {@code MPI_Comm_create_group} calls and a rollback's
 *       readiness round.
 * </ul>
 * Every tag stays below {@link #LIMIT}.
 */
public final class InternalTags {

    /**
     * Exclusive bound of every tag here: 2^30, within Open MPI's tag bound (2^31 - 1). Under a lower native bound
     * (MPICH's 2^28 - 1) only the twin slots whose tags fit are used (TagBound); every other range is far below.
     */
    public static final int LIMIT = 1 << 30;

    /** Which communicator a range of tags lives on. */
    public enum Space { CONTROL, INTERNAL, TWIN, PEER, WORLD }

    /**
     * {@code size} consecutive tags from {@code first}; a numbered message
     * (by epoch, sequence or send id) takes the tag of its number modulo
     * {@code size}, a power of two.
     */
    public record Range(String name, Space space, int first, int size) {

        public Range {
            if (Integer.bitCount(size) != 1) {
                throw new IllegalArgumentException(name + ": size " + size + " is not a power of two");
            }
        }

        /** The tag of message number {@code n}: its low bits, within the range. */
        public int tag(long n) {
            return first + (int) (n & (size - 1));
        }

        /** The last tag of the range. */
        public int last() {
            return first + size - 1;
        }
    }

    private InternalTags() {}

    // ---- the control communicator ----

    /** A receiver's acknowledgement of what it consumed (log.Acknowledgements). */
    public static final Range ACKNOWLEDGEMENT = new Range("acknowledgement", Space.CONTROL, 0x3001, 1);
    /** A repair's agreement on the failure set, by epoch (repair.Repair). */
    public static final Range REPAIR_AGREE = new Range("repair agreement", Space.CONTROL, 0x4000, 0x4000);
    /** "About to enter a blocking call" inside a repair, by epoch (repair.Repair). */
    public static final Range REPAIR_READY = new Range("repair readiness", Space.CONTROL, 0x8000, 0x4000);
    /** "Entered MPI_Finalize", by epoch (repair.FinalizeBarrier). */
    public static final Range FINALIZE_ENTERED = new Range("finalize entered", Space.CONTROL, 0xC000, 0x2000);
    /** "Left for the native MPI_Finalize" (repair.FinalizeBarrier). */
    public static final Range FINALIZE_LEFT = new Range("finalize left", Space.CONTROL, 0xE000, 1);
    /**
     * "About to enter a blocking creation" while a rollback's generation makes its first communicators
     * (creation.GenerationEntry): one tag, as the generation's control communicator is fresh.
     */
    public static final Range GENERATION_ENTRY = new Range("generation entry", Space.CONTROL, 0xE001, 1);
    /** A program's communicator creation, by epoch: READY, DONE and ABORT (structure.CommCreation). */
    public static final Range CREATION_READY = new Range("creation ready", Space.CONTROL, 0xF000, 0x400);
    public static final Range CREATION_DONE = new Range("creation done", Space.CONTROL, 0xF400, 0x400);
    public static final Range CREATION_ABORT = new Range("creation abort", Space.CONTROL, 0xF800, 0x400);
    /**
     * A repair's all-to-alls among survivors (repair.BlobExchange), by epoch and use: two per epoch (who
     * holds which communicator, the receive records).
     */
    public static final Range REPAIR_BLOBS = new Range("repair all-to-alls", Space.CONTROL, 0x20000, 0x4000);
    /** "Entered the free of this communicator", by the communicator's id (structure.CommRelease). */
    public static final Range COMM_FREE = new Range("communicator free", Space.CONTROL, 0x10000, 0x10000);

    // ---- each communicator's internal channel ----

    /** Neighbourhood collectives: one tag per edge direction of a topology (p2p.NeighborLists). */
    public static final Range NEIGHBOURS = new Range("neighbourhood collectives", Space.INTERNAL, 1, 1 << 16);
    /** The leaders' exchange of an intercommunicator creation: the program's tag, low 16 bits. */
    public static final Range INTERCOMM_LEADERS = new Range("intercommunicator leaders", Space.INTERNAL, 1 << 18,
            1 << 16);
    /**
     * A connect to a port (structure.PortName) on COMM_WORLD's channel: the
     * connecting root's request to the port's owner, by the port's serial, low
     * 15 bits; the owner takes it from any source.
     */
    public static final Range PORT_REQUEST = new Range("port connect request", Space.INTERNAL, 1 << 17, 1 << 15);
    /** The two roots' exchange of their groups after a port request, by the port's serial. */
    public static final Range PORT_REPLY = new Range("port connect reply", Space.INTERNAL, (1 << 17) + (1 << 15),
            1 << 15);
    /**
     * Small allreduces by recursive doubling (ops.RecursiveDoublingAllreduce):
     * the collective's sequence (10 bits) times 64 steps.
     */
    public static final Range ALLREDUCE = new Range("recursive-doubling allreduce", Space.INTERNAL, 1 << 19, 1 << 16);
    /** The step tags one allreduce uses, from {@link #allreduceBase}. */
    public static final int ALLREDUCE_STEPS = 64;
    /** The payload of a large message, by its send id (msglog.MessageHeader#payloadTag). */
    public static final Range PAYLOAD = new Range("large-message payload", Space.INTERNAL, 1 << 20, 1 << 20);
    /**
     * A receiver's reply to a pulled payload (msglog.PullDescriptor), by the message's send id: it travels the
     * other way from the payload's tag, so it needs a range of its own (the peer's own payloads use those).
     */
    public static final Range PULL_REPLY = new Range("pulled-payload reply", Space.INTERNAL, 1 << 21, 1 << 20);

    // ---- the twin channel ----

    /** Bits of a twin decision's number on the wire; the communicator's slot takes the bits above. */
    public static final int TWIN_DECISION_BITS = 20;
    /** Twin slots: one per live communicator of a process (structure.TwinSlots). */
    public static final int TWIN_SLOTS = 1 << 10;
    /** Every communicator's twin decisions: slot << 20 | decision number mod 2^20. */
    public static final Range TWIN_DECISIONS = new Range("twin decisions", Space.TWIN, 0,
            TWIN_SLOTS << TWIN_DECISION_BITS);

    // ---- the engine's own MPI_Intercomm_create calls ----

    /** The computational copies' native intercommunicator of an intercommunicator. */
    public static final Range INTERCOMM_COLLECTIVE = new Range("intercommunicator collectives", Space.PEER, 103, 1);

    // ---- the native COMM_WORLD: the engine's MPI_Comm_create_group calls, a rollback's readiness ----

    /** A communicator's native communicators, by its id. */
    public static final Range COMM_GROUPS = new Range("communicator groups", Space.WORLD, 0, 0x4000);
    /**
     * A generation's control communicator (control.ControlComm), by generation: apart from every communicator's,
     * so a creation a survivor was in when the job rolled back never meets it.
     */
    public static final Range CONTROL_GROUPS = new Range("control communicator", Space.WORLD, 0x4000, 0x4000);
    /**
     * "Ready for the rollback to this generation" (runtime.RollbackReadiness), by generation: the one message of
     * the engine's that travels on the native COMM_WORLD, whose creations of this generation it precedes.
     */
    public static final Range ROLLBACK_READY = new Range("rollback readiness", Space.WORLD, 0x10000, 0x10000);

    /** Every range, for the disjointness check. */
    public static final List<Range> ALL = List.of(ACKNOWLEDGEMENT, REPAIR_AGREE, REPAIR_READY, REPAIR_BLOBS,
            FINALIZE_ENTERED, FINALIZE_LEFT, GENERATION_ENTRY, CREATION_READY, CREATION_DONE, CREATION_ABORT,
            COMM_FREE, NEIGHBOURS, INTERCOMM_LEADERS, PORT_REQUEST, PORT_REPLY, ALLREDUCE, PAYLOAD, PULL_REPLY,
            TWIN_DECISIONS, INTERCOMM_COLLECTIVE, COMM_GROUPS, CONTROL_GROUPS, ROLLBACK_READY);

    /** The first tag of allreduce number {@code sequence}; its steps take the next {@link #ALLREDUCE_STEPS}. */
    public static int allreduceBase(long sequence) {
        return ALLREDUCE.first() + (int) ((sequence & (ALLREDUCE.size() / ALLREDUCE_STEPS - 1)) * ALLREDUCE_STEPS);
    }

    /** The wire tag of twin decision {@code decision} of the communicator in {@code slot}. */
    public static int twinDecision(int slot, int decision) {
        return (slot << TWIN_DECISION_BITS) | (decision & ((1 << TWIN_DECISION_BITS) - 1));
    }
}

package org.fthp.coordinator.wire;

import java.util.Optional;

/**
 * Message types and their one-byte wire codes. Codes are explicit (never {@code ordinal()}) so that reordering
 * this enum can never change the protocol.
 */
public enum MessageType {
    /** server → peer: random nonce the peer must MAC. */
    HELLO(1),
    /** peer → server: role, identity and HMAC-SHA256(secret, nonce || role || identity). */
    AUTH(2),
    /** process → its node coordinator: pid, native rank, logical rank, role. */
    REGISTER_PROCESS(3),
    /** child coordinator → its parent: node id. */
    REGISTER_COORDINATOR(4),
    /** upward: processes that died, as seen below the sender. */
    FAILURE_REPORT(5),
    /** downward: epoch and the complete job-wide failed set. */
    FAILURE_SET(6),
    /** downward: a logical rank has lost every copy; the job must end. */
    JOB_ABORT(7),
    /** process → node: finished normally, so the coming disconnect is not a failure. */
    PROCESS_DONE(8),
    /** server → peer: registration accepted; from here on the peer will receive failure sets. */
    REGISTERED(9),
    /**
     * upward: the launcher's proxy reported a pid that never registered with node {@code nodeId} within the grace
     * period; the primary ends the job once every node that receives the reports has said so.
     */
    UNOWNED_PID(10),
    /** coordinator → another node coordinator: opens a data link for piece copies and fetches (any node to any node). */
    REGISTER_PEER(11),
    /** process → its node, or node → partner node: one chunk of a checkpoint piece. */
    PIECE_PUT(12),
    /** node → process, or partner → node: the piece is held (with a partner copy, or local only), or refused. */
    PIECE_ACK(13),
    /** process → its node, or node → another node: send me this piece. */
    PIECE_GET(14),
    /** answer to PIECE_GET: one chunk of the piece. */
    PIECE_DATA(15),
    /** answer to PIECE_GET: nobody asked holds it. */
    PIECE_MISSING(16),
    /** upward to the primary: a rank's piece of an epoch is held in memory (and by a partner when there is one). */
    PIECE_HELD(17),
    /** upward to the primary: a node wrote these pieces of a committed epoch durably to the checkpoint directory. */
    PIECES_ON_DISK(18),
    /** downward from the primary to every process: the timer says a checkpoint is due (a sequence number). */
    CHECKPOINT_DUE(19),
    /** process → node → primary: what writing its piece of an epoch cost this rank. */
    CHECKPOINT_COST(20),
    /** downward from the primary to everyone: every rank's piece of this epoch is held; older epochs may go. */
    CHECKPOINT_COMMITTED(21),
    /**
     * process → node → primary: the program on this copy ended the job itself (an uncaught exception, System.exit
     * before MPI_Finalize, MPI_Abort, ERRORS_ARE_FATAL) with an exit code; a verdict, not a failure to repair.
     */
    PROGRAM_ENDED(22),
    /**
     * process → its node (a put), or node → process (a get's answer): the piece is in this file of the host's shared
     * memory, so it changes hands without being copied. A put is answered with PIECE_ACK.
     */
    PIECE_SHARED(23),
    /**
     * process → its node: send me this piece, as PIECE_SHARED if you can see the marker file (then we share the
     * host's memory), else as PIECE_DATA chunks.
     */
    PIECE_GET_SHARED(24),
    /**
     * upward: these native ranks finished normally below the sender (each after its PROCESS_DONE). The primary
     * needs them when a whole host is lost: what finished there before is not failed with it, and once every
     * process has finished or failed the job is over, whatever the native launcher still waits for.
     */
    PROCESSES_DONE(25),
    /**
     * both ways between a child coordinator and its parent, every heartbeat interval: "I am still here". A link
     * that stays silent for the configured number of intervals is taken for lost, as if its connection had closed
     * (a host cut off from the network keeps its connections open: only silence shows it).
     */
    HEARTBEAT(26),
    /**
     * downward from the primary to every node and from each node to its spares: every process of the program has
     * finished or failed, so an unused spare enters MPI_Finalize with them (the native Finalize waits for all).
     */
    SPARES_RELEASE(27),
    /**
     * upward to the primary: what a rollback needs to know of a process: a spare is ready (registered) or gone, or
     * a program process entered its resilient body ({@code Checkpoint.resilient}) in a generation of the job.
     */
    PROCESS_STATE(28),
    /**
     * downward from the primary to every process and to the spare it names: a rank lost every copy, and the job
     * rolls back in place: generation {@code g} begins, the spare takes the lost rank, every survivor unwinds to its
     * resilient body and every process resumes from the committed epoch. Also a spare that becomes the replica of a
     * rank that lost one of its two copies (its replica restored).
     */
    ROLLBACK(29),
    /**
     * downward from the primary to every process: whether a replica is due to be restored from a spare (a rank
     * lost one of its copies and a spare is free), so the next checkpoint waits for its commit, at which the job
     * rolls back in place with the spare as that rank's replica. One byte: 1 due, 0 not (any more).
     */
    RESTORATION_DUE(30),
    /**
     * process → its node → the primary: the twins of a replicated rank differ (silent data corruption); the copy that
     * found it waits for the job's rollback in place to the last committed epoch, or for its end.
     */
    SDC_DETECTED(31),
    /**
     * node → its waiting spares: the largest checkpoint piece the node holds (a long, bytes), sent when it grows. A
     * spare that takes a rank allocates about that much state in its body; it faults those pages in while it waits,
     * not while every survivor waits for it.
     */
    SPARE_WARM(32);

    private final byte code;

    MessageType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static Optional<MessageType> fromCode(byte code) {
        for (MessageType t : values()) {
            if (t.code == code) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}

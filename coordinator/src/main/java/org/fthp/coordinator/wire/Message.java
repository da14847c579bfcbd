package org.fthp.coordinator.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import org.fthp.checkpoint.store.PieceEntry;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.Role;

/** Every message of the coordinator protocol, one record per {@link MessageType}. */
public sealed interface Message {

    MessageType type();

    /** Size of the server's challenge and of an HMAC-SHA256 tag. */
    int NONCE_BYTES = 32;
    int MAC_BYTES = 32;

    record Hello(byte[] nonce) implements Message {
        public Hello {
            if (nonce.length != NONCE_BYTES) {
                throw new IllegalArgumentException("nonce must be " + NONCE_BYTES + " bytes");
            }
            nonce = nonce.clone();
        }

        @Override public byte[] nonce() { return nonce.clone(); }
        @Override public MessageType type() { return MessageType.HELLO; }
        @Override public boolean equals(Object o) { return o instanceof Hello h && Arrays.equals(nonce, h.nonce); }
        @Override public int hashCode() { return Arrays.hashCode(nonce); }
        @Override public String toString() { return "Hello[" + HexFormat.of().formatHex(nonce) + "]"; }
    }

    record Auth(PeerRole peerRole, String identity, byte[] mac) implements Message {
        public Auth {
            Objects.requireNonNull(peerRole, "peerRole");
            Objects.requireNonNull(identity, "identity");
            if (mac.length != MAC_BYTES) {
                throw new IllegalArgumentException("mac must be " + MAC_BYTES + " bytes");
            }
            mac = mac.clone();
        }

        @Override public byte[] mac() { return mac.clone(); }
        @Override public MessageType type() { return MessageType.AUTH; }
        @Override public boolean equals(Object o) {
            return o instanceof Auth a && peerRole == a.peerRole && identity.equals(a.identity) && Arrays.equals(mac, a.mac);
        }
        @Override public int hashCode() { return Objects.hash(peerRole, identity, Arrays.hashCode(mac)); }
        /** The tag is left out: logs should not carry authentication material. */
        @Override public String toString() { return "Auth[" + peerRole + ", " + identity + "]"; }
    }

    record RegisterProcess(long pid, int nativeRank, int logicalRank, Role role) implements Message {
        public RegisterProcess {
            Objects.requireNonNull(role, "role");
        }
        @Override public MessageType type() { return MessageType.REGISTER_PROCESS; }
    }

    record RegisterCoordinator(int nodeId) implements Message {
        @Override public MessageType type() { return MessageType.REGISTER_COORDINATOR; }
    }

    record FailureReport(List<FailedProcess> failed) implements Message {
        public FailureReport {
            failed = List.copyOf(failed);
        }
        @Override public MessageType type() { return MessageType.FAILURE_REPORT; }
    }

    record FailureSet(long epoch, List<FailedProcess> failed) implements Message {
        public FailureSet {
            failed = List.copyOf(failed);
        }
        @Override public MessageType type() { return MessageType.FAILURE_SET; }
    }

    /**
     * @param lostRank the logical rank that lost every copy (or whose program ended the job), or {@link #NO_RANK}
     *                 when the dead process had no rank yet
     * @param exitCode the program's own exit code when its program ended the job ({@link ProgramEnded}); {@link
     *                 #NOT_A_PROGRAM_END} when the job ends because processes were lost
     */
    record JobAbort(String reason, int lostRank, int exitCode) implements Message {
        /** A process died before it registered: no logical rank is known for it. */
        public static final int NO_RANK = JobEvents.NO_RANK;
        /** The job ends because processes were lost, not by the program's own verdict. */
        public static final int NOT_A_PROGRAM_END = 0;

        public JobAbort {
            Objects.requireNonNull(reason, "reason");
            if (lostRank < NO_RANK) {
                throw new IllegalArgumentException("lost rank must be >= 0 or NO_RANK: " + lostRank);
            }
        }

        /** Processes were lost. */
        public JobAbort(String reason, int lostRank) {
            this(reason, lostRank, NOT_A_PROGRAM_END);
        }

        public boolean programEnded() {
            return exitCode != NOT_A_PROGRAM_END;
        }

        @Override public MessageType type() { return MessageType.JOB_ABORT; }
    }

    /**
     * The program on one copy of {@code logicalRank} ended the job with {@code exitCode} (never 0: a program that
     * ends without MPI_Finalize gets a non-zero code too); {@code reason} says how, for the user.
     */
    record ProgramEnded(int logicalRank, int exitCode, String reason) implements Message {
        public ProgramEnded {
            Objects.requireNonNull(reason, "reason");
            if (logicalRank < 0 || exitCode == JobAbort.NOT_A_PROGRAM_END) {
                throw new IllegalArgumentException("need a rank >= 0 and a non-zero exit code: rank " + logicalRank
                        + ", code " + exitCode);
            }
        }
        @Override public MessageType type() { return MessageType.PROGRAM_ENDED; }
    }

    record ProcessDone() implements Message {
        @Override public MessageType type() { return MessageType.PROCESS_DONE; }
    }

    /** Native ranks that finished normally (PROCESS_DONE) below the sender. */
    record ProcessesDone(List<Integer> nativeRanks) implements Message {
        public ProcessesDone {
            nativeRanks = List.copyOf(nativeRanks);
            for (int r : nativeRanks) {
                if (r < 0) {
                    throw new IllegalArgumentException("native ranks must be >= 0: " + r);
                }
            }
        }
        @Override public MessageType type() { return MessageType.PROCESSES_DONE; }
    }

    /** No payload: its arrival is the news. Handled by {@link LinkHeartbeat}, never seen by the sessions. */
    record Heartbeat() implements Message {
        @Override public MessageType type() { return MessageType.HEARTBEAT; }
    }

    /** No payload: the job's program processes have all finished or failed (see {@link MessageType#SPARES_RELEASE}). */
    record SparesRelease() implements Message {
        @Override public MessageType type() { return MessageType.SPARES_RELEASE; }
    }

    /** The largest piece a spare's node holds, in bytes ({@link MessageType#SPARE_WARM}). */
    record SpareWarm(long pieceBytes) implements Message {
        @Override public MessageType type() { return MessageType.SPARE_WARM; }
    }

    /**
     * What the primary's rollback planner hears of one native process ({@link MessageType#PROCESS_STATE}).
     *
     * @param generation for {@link State#IN_BODY}: the job's generation the body runs in (0 before any rollback)
     */
    record ProcessState(int nativeRank, State state, int generation) implements Message {
        /** Codes are wire values. */
        public enum State {
            SPARE_READY((byte) 0),
            SPARE_GONE((byte) 1),
            IN_BODY((byte) 2),
            /** The body returned: a failure from now on cannot roll this process back. */
            BODY_LEFT((byte) 3);

            private final byte code;

            State(byte code) {
                this.code = code;
            }

            public byte code() {
                return code;
            }

            public static java.util.Optional<State> fromCode(byte code) {
                for (State s : values()) {
                    if (s.code == code) {
                        return java.util.Optional.of(s);
                    }
                }
                return java.util.Optional.empty();
            }
        }

        public ProcessState {
            Objects.requireNonNull(state, "state");
            if (nativeRank < 0 || generation < 0) {
                throw new IllegalArgumentException("native rank and generation must be >= 0");
            }
        }
        @Override public MessageType type() { return MessageType.PROCESS_STATE; }
    }

    /**
     * A rollback in place ({@link MessageType#ROLLBACK}): generation {@code generation} of the job begins; native
     * process {@code spareNative} takes logical rank {@code lostRank}, whose last copy was {@code deadNative}; every
     * process resumes from committed epoch {@code epoch}, and numbers its next checkpoints from {@code firstEpoch}.
     * {@code cmpNatives} and {@code repNatives} (-1: none) are the job's layout from then on, logical rank by logical
     * rank: every process builds the new communicators from this one answer. It reflects every failure up to
     * failure set {@code failureEpoch}: no process repairs for those. When the spare is {@code lostRank}'s replica in
     * that layout ({@link #restoresReplica()}), the rank did not lose every copy: {@code deadNative} is the copy it
     * lost, and the spare restores its replica at the epoch just committed (nothing is lost). When the twins of
     * {@code lostRank} differed ({@link #afterSdc()}: {@code deadNative} and {@code spareNative} are both
     * {@link #NO_PROCESS}), no process is lost or taken: every process goes back to the last committed epoch, which
     * the twins verified, in the same layout.
     */
    record Rollback(int generation, long epoch, long firstEpoch, int lostRank, int deadNative, int spareNative,
                    List<Integer> cmpNatives, List<Integer> repNatives, long failureEpoch)
            implements Message {
        /** {@code deadNative} and {@code spareNative} of a rollback after a difference between twins. */
        public static final int NO_PROCESS = -1;

        public Rollback {
            cmpNatives = List.copyOf(cmpNatives);
            repNatives = List.copyOf(repNatives);
            boolean sdc = deadNative == NO_PROCESS && spareNative == NO_PROCESS;
            if (cmpNatives.size() != repNatives.size() || lostRank >= cmpNatives.size() || !sdc
                    && cmpNatives.get(lostRank) != spareNative && repNatives.get(lostRank) != spareNative) {
                throw new IllegalArgumentException("bad rollback layout: " + cmpNatives + " " + repNatives);
            }
            if (generation < 1 || epoch < 1 || firstEpoch <= epoch || lostRank < 0
                    || !sdc && (deadNative < 0 || spareNative < 0)) {
                throw new IllegalArgumentException("bad rollback: generation " + generation + " epoch " + epoch
                        + " first " + firstEpoch + " rank " + lostRank + " dead " + deadNative + " spare "
                        + spareNative);
            }
        }

        /** Whether the spare becomes the rank's replica (a restoration), not the rank's only copy. */
        public boolean restoresReplica() {
            return !afterSdc() && repNatives.get(lostRank) == spareNative;
        }

        /** Whether the twins of {@code lostRank} differed: no process lost, no spare taken. */
        public boolean afterSdc() {
            return spareNative == NO_PROCESS;
        }
        @Override public MessageType type() { return MessageType.ROLLBACK; }
    }

    /**
     * The twins of logical rank {@code logicalRank} differ ({@link MessageType#SDC_DETECTED}), as native process
     * {@code nativeRank} found in generation {@code generation} of the job; {@code reason} is the line the job ends
     * with if it cannot roll back in place ({@code silent data corruption detected: rank=R epoch=E what=...}).
     */
    record SdcDetected(int nativeRank, int logicalRank, int generation, String reason) implements Message {
        public SdcDetected {
            Objects.requireNonNull(reason, "reason");
            if (nativeRank < 0 || logicalRank < 0 || generation < 0) {
                throw new IllegalArgumentException("native rank, logical rank and generation must be >= 0");
            }
        }
        @Override public MessageType type() { return MessageType.SDC_DETECTED; }
    }

    /** A replica is (or no longer is) due to be restored from a spare ({@link MessageType#RESTORATION_DUE}). */
    record RestorationDue(boolean due) implements Message {
        @Override public MessageType type() { return MessageType.RESTORATION_DUE; }
    }

    record Registered(int nodeId) implements Message {
        @Override public MessageType type() { return MessageType.REGISTERED; }
    }

    /** Node {@code nodeId} was told {@code pid} died and no process with that pid registered there in time. */
    record UnownedPid(long pid, int nodeId) implements Message {
        public UnownedPid {
            if (pid <= 0 || nodeId < 0) {
                throw new IllegalArgumentException("need pid > 0 and node id >= 0: pid " + pid + ", node " + nodeId);
            }
        }
        @Override public MessageType type() { return MessageType.UNOWNED_PID; }
    }

    // ---- checkpoints ----

    /** The largest piece a coordinator holds: one Java array. */
    long MAX_PIECE_BYTES = Integer.MAX_VALUE - 8;

    /** A node coordinator opening a data link to another (piece copies and fetches go node to node, not up the tree). */
    record RegisterPeer(int nodeId) implements Message {
        @Override public MessageType type() { return MessageType.REGISTER_PEER; }
    }

    /**
     * Bytes {@code offset .. offset+bytes.length} of a piece of {@code pieceBytes} bytes in all, whose CRC32C (of all
     * of it) is {@code crc32c}. A piece travels as consecutive chunks, first to last, on one connection; the chunk
     * that reaches {@code pieceBytes} completes it. A frame holds at most {@link PieceChunk#MAX_CHUNK_BYTES}.
     */
    record PieceChunk(long epoch, int rank, int crc32c, long pieceBytes, long offset, byte[] bytes) {
        /** Leaves room for the fields in a {@link MessageCodec#MAX_FRAME_BYTES} frame. */
        public static final int MAX_CHUNK_BYTES = 60 * 1024;

        public PieceChunk {
            if (epoch < 0 || rank < 0 || pieceBytes < 0 || pieceBytes > MAX_PIECE_BYTES || offset < 0
                    || bytes.length > MAX_CHUNK_BYTES || offset + bytes.length > pieceBytes) {
                throw new IllegalArgumentException("bad piece chunk: epoch " + epoch + ", rank " + rank + ", bytes "
                        + offset + "+" + bytes.length + " of " + pieceBytes);
            }
        }

        public boolean isLast() {
            return offset + bytes.length == pieceBytes;
        }

        @Override public boolean equals(Object o) {
            return o instanceof PieceChunk c && epoch == c.epoch && rank == c.rank && crc32c == c.crc32c
                    && pieceBytes == c.pieceBytes && offset == c.offset && Arrays.equals(bytes, c.bytes);
        }
        @Override public int hashCode() { return Objects.hash(epoch, rank, offset, Arrays.hashCode(bytes)); }
        @Override public String toString() {
            return "PieceChunk[epoch " + epoch + ", rank " + rank + ", " + offset + "+" + bytes.length + " of "
                    + pieceBytes + "]";
        }
    }

    record PiecePut(PieceChunk chunk) implements Message {
        public PiecePut {
            Objects.requireNonNull(chunk, "chunk");
        }
        @Override public MessageType type() { return MessageType.PIECE_PUT; }
    }

    /**
     * The outcome of a put, sent once the whole piece has arrived (or at once when it is refused).
     * {@link Status#HELD_WITH_PARTNER}: held by the receiving node and by its partner node;
     * {@link Status#HELD_LOCAL_ONLY}: held by the receiving node, and the job has no other node;
     * {@link Status#REFUSED}: not held (memory bound, checksum, partner unreachable): {@code detail} says why.
     */
    record PieceAck(long epoch, int rank, Status status, String detail) implements Message {
        public enum Status {
            HELD_WITH_PARTNER(1), HELD_LOCAL_ONLY(2), REFUSED(3),
            /** Held by the receiving node; its copy to the partner node is under way (the epoch commits after it). */
            HELD_COPYING(4),
            /** Not held: the receiving coordinator cannot see the PIECE_SHARED file (not on this host); send chunks. */
            NOT_SHARED(5);

            private final byte code;

            Status(int code) {
                this.code = (byte) code;
            }

            public byte code() {
                return code;
            }

            public boolean held() {
                return this != REFUSED && this != NOT_SHARED;
            }

            public static java.util.Optional<Status> fromCode(byte code) {
                for (Status s : values()) {
                    if (s.code == code) {
                        return java.util.Optional.of(s);
                    }
                }
                return java.util.Optional.empty();
            }
        }

        public PieceAck {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(detail, "detail");
        }
        @Override public MessageType type() { return MessageType.PIECE_ACK; }
    }

    /** A piece of {@code pieceBytes} bytes with that CRC32C, in {@code path} on the shared-memory file system. */
    record PieceShared(long epoch, int rank, int crc32c, long pieceBytes, String path) implements Message {
        public PieceShared {
            Objects.requireNonNull(path, "path");
            if (epoch < 0 || rank < 0 || pieceBytes < 0 || pieceBytes > MAX_PIECE_BYTES || path.isEmpty()) {
                throw new IllegalArgumentException("bad shared piece: epoch " + epoch + ", rank " + rank + ", "
                        + pieceBytes + " bytes in '" + path + "'");
            }
        }
        @Override public MessageType type() { return MessageType.PIECE_SHARED; }
    }

    /** A PIECE_GET from a process that can be seen at {@code marker} (a file it made in its shared memory). */
    record PieceGetShared(long epoch, int rank, String marker) implements Message {
        public PieceGetShared {
            Objects.requireNonNull(marker, "marker");
            if (epoch < 0 || rank < 0) {
                throw new IllegalArgumentException("need epoch >= 0 and rank >= 0");
            }
        }
        @Override public MessageType type() { return MessageType.PIECE_GET_SHARED; }
    }

    record PieceGet(long epoch, int rank) implements Message {
        public PieceGet {
            if (epoch < 0 || rank < 0) {
                throw new IllegalArgumentException("need epoch >= 0 and rank >= 0");
            }
        }
        @Override public MessageType type() { return MessageType.PIECE_GET; }
    }

    record PieceData(PieceChunk chunk) implements Message {
        public PieceData {
            Objects.requireNonNull(chunk, "chunk");
        }
        @Override public MessageType type() { return MessageType.PIECE_DATA; }
    }

    record PieceMissing(long epoch, int rank, String reason) implements Message {
        public PieceMissing {
            Objects.requireNonNull(reason, "reason");
        }
        @Override public MessageType type() { return MessageType.PIECE_MISSING; }
    }

    record PieceHeld(long epoch, int rank, long bytes, int crc32c) implements Message {
        @Override public MessageType type() { return MessageType.PIECE_HELD; }
    }

    /** Entries as the disk store's manifest names them. */
    record PiecesOnDisk(long epoch, List<PieceEntry> pieces) implements Message {
        public PiecesOnDisk {
            pieces = List.copyOf(pieces);
        }
        @Override public MessageType type() { return MessageType.PIECES_ON_DISK; }
    }

    record CheckpointDue(long sequence) implements Message {
        @Override public MessageType type() { return MessageType.CHECKPOINT_DUE; }
    }

    record CheckpointCost(long epoch, int rank, long nanos) implements Message {
        @Override public MessageType type() { return MessageType.CHECKPOINT_COST; }
    }

    record CheckpointCommitted(long epoch) implements Message {
        @Override public MessageType type() { return MessageType.CHECKPOINT_COMMITTED; }
    }
}

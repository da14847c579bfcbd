package org.fthp.coordinator.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import org.fthp.checkpoint.store.PieceEntry;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;

/**
 * Field-by-field encoding of a message body ({@code [byte type][payload]}, the length prefix is the frame layer's).
 * Explicit fields only, never Java serialization: decoding untrusted bytes must not be able to do anything but
 * produce one of the records in {@link Message} or throw {@link MalformedFrameException}.
 *
 * <p>Decoding is strict: every length and count is checked against what is actually left in the frame before
 * anything is allocated, enum codes must be known, and trailing bytes are an error.
 */
public final class MessageCodec {
    /** Whole frame including its 4-byte length prefix. */
    public static final int MAX_FRAME_BYTES = 64 * 1024;
    /** Cap on identity / cause / reason strings, so a failure set of a few thousand processes still fits a frame. */
    public static final int MAX_TEXT_BYTES = 1024;

    /** pid + native rank + logical rank + role + empty cause length. */
    private static final int MIN_FAILED_PROCESS_BYTES = 8 + 4 + 4 + 1 + 2;

    private MessageCodec() {
    }

    public static void encode(Message message, ByteBuf out) {
        out.writeByte(message.type().code());
        switch (message) {
            case Message.Hello h -> out.writeBytes(h.nonce());
            case Message.Auth a -> {
                out.writeByte(a.peerRole().code());
                writeText(out, a.identity());
                out.writeBytes(a.mac());
            }
            case Message.RegisterProcess r -> {
                out.writeLong(r.pid());
                out.writeInt(r.nativeRank());
                out.writeInt(r.logicalRank());
                out.writeByte(r.role().code());
            }
            case Message.RegisterCoordinator r -> out.writeInt(r.nodeId());
            case Message.FailureReport r -> writeFailedList(out, r.failed());
            case Message.FailureSet s -> {
                out.writeLong(s.epoch());
                writeFailedList(out, s.failed());
            }
            case Message.JobAbort a -> {
                writeText(out, a.reason());
                out.writeInt(a.lostRank());
                out.writeInt(a.exitCode());
            }
            case Message.ProgramEnded p -> {
                out.writeInt(p.logicalRank());
                out.writeInt(p.exitCode());
                writeText(out, p.reason());
            }
            case Message.ProcessDone d -> { }
            case Message.Heartbeat h -> { }
            case Message.SparesRelease r -> { }
            case Message.RestorationDue d -> out.writeByte(d.due() ? 1 : 0);
            case Message.SpareWarm w -> out.writeLong(w.pieceBytes());
            case Message.ProcessState p -> {
                out.writeInt(p.nativeRank());
                out.writeByte(p.state().code());
                out.writeInt(p.generation());
            }
            case Message.Rollback r -> {
                out.writeInt(r.generation());
                out.writeLong(r.epoch());
                out.writeLong(r.firstEpoch());
                out.writeInt(r.lostRank());
                out.writeInt(r.deadNative());
                out.writeInt(r.spareNative());
                out.writeInt(r.cmpNatives().size());
                for (int i = 0; i < r.cmpNatives().size(); i++) {
                    out.writeInt(r.cmpNatives().get(i));
                    out.writeInt(r.repNatives().get(i));
                }
                out.writeLong(r.failureEpoch());
            }
            case Message.SdcDetected d -> {
                out.writeInt(d.nativeRank());
                out.writeInt(d.logicalRank());
                out.writeInt(d.generation());
                writeText(out, d.reason());
            }
            case Message.ProcessesDone d -> {
                out.writeInt(d.nativeRanks().size());
                for (int r : d.nativeRanks()) {
                    out.writeInt(r);
                }
            }
            case Message.Registered r -> out.writeInt(r.nodeId());
            case Message.UnownedPid u -> {
                out.writeLong(u.pid());
                out.writeInt(u.nodeId());
            }
            case Message.RegisterPeer r -> out.writeInt(r.nodeId());
            case Message.PiecePut p -> writeChunk(out, p.chunk());
            case Message.PieceData d -> writeChunk(out, d.chunk());
            case Message.PieceAck a -> {
                out.writeLong(a.epoch());
                out.writeInt(a.rank());
                out.writeByte(a.status().code());
                writeText(out, a.detail());
            }
            case Message.PieceGet g -> {
                out.writeLong(g.epoch());
                out.writeInt(g.rank());
            }
            case Message.PieceMissing m -> {
                out.writeLong(m.epoch());
                out.writeInt(m.rank());
                writeText(out, m.reason());
            }
            case Message.PieceHeld h -> {
                out.writeLong(h.epoch());
                out.writeInt(h.rank());
                out.writeLong(h.bytes());
                out.writeInt(h.crc32c());
            }
            case Message.PiecesOnDisk d -> {
                out.writeLong(d.epoch());
                out.writeInt(d.pieces().size());
                for (PieceEntry p : d.pieces()) {
                    out.writeInt(p.rank());
                    out.writeLong(p.bytes());
                    out.writeInt(p.crc32c());
                }
            }
            case Message.CheckpointDue d -> out.writeLong(d.sequence());
            case Message.CheckpointCost c -> {
                out.writeLong(c.epoch());
                out.writeInt(c.rank());
                out.writeLong(c.nanos());
            }
            case Message.CheckpointCommitted c -> out.writeLong(c.epoch());
            case Message.PieceShared p -> {
                out.writeLong(p.epoch());
                out.writeInt(p.rank());
                out.writeInt(p.crc32c());
                out.writeLong(p.pieceBytes());
                writeText(out, p.path());
            }
            case Message.PieceGetShared g -> {
                out.writeLong(g.epoch());
                out.writeInt(g.rank());
                writeText(out, g.marker());
            }
        }
    }

    /** Decodes one frame body (type byte + payload); the buffer must hold exactly one message. */
    public static Message decode(ByteBuf in) throws MalformedFrameException {
        need(in, 1, "type");
        byte code = in.readByte();
        MessageType type = MessageType.fromCode(code)
                .orElseThrow(() -> new MalformedFrameException("unknown message type " + (code & 0xff)));
        Message message = switch (type) {
            case HELLO -> new Message.Hello(readBytes(in, Message.NONCE_BYTES, "nonce"));
            case AUTH -> {
                PeerRole role = readPeerRole(in);
                String identity = readText(in, "identity");
                yield new Message.Auth(role, identity, readBytes(in, Message.MAC_BYTES, "mac"));
            }
            case REGISTER_PROCESS -> {
                need(in, 8 + 4 + 4 + 1, "REGISTER_PROCESS");
                long pid = in.readLong();
                int nativeRank = readRank(in, "native rank");
                int logicalRank = readRank(in, "logical rank");
                yield new Message.RegisterProcess(pid, nativeRank, logicalRank, readRole(in));
            }
            case REGISTER_COORDINATOR -> new Message.RegisterCoordinator(readRank(in, "node id"));
            case FAILURE_REPORT -> new Message.FailureReport(readFailedList(in));
            case FAILURE_SET -> {
                need(in, 8, "epoch");
                long epoch = in.readLong();
                if (epoch < 0) {
                    throw new MalformedFrameException("negative epoch " + epoch);
                }
                yield new Message.FailureSet(epoch, readFailedList(in));
            }
            case JOB_ABORT -> {
                String reason = readText(in, "reason");
                need(in, 4, "lost rank");
                int lostRank = in.readInt();
                if (lostRank < Message.JobAbort.NO_RANK) {
                    throw new MalformedFrameException("lost rank " + lostRank);
                }
                need(in, 4, "exit code");
                yield new Message.JobAbort(reason, lostRank, in.readInt());
            }
            case PROGRAM_ENDED -> {
                int rank = readRank(in, "logical rank");
                need(in, 4, "exit code");
                int exitCode = in.readInt();
                if (exitCode == Message.JobAbort.NOT_A_PROGRAM_END) {
                    throw new MalformedFrameException("a program end with exit code 0");
                }
                yield new Message.ProgramEnded(rank, exitCode, readText(in, "reason"));
            }
            case PROCESS_DONE -> new Message.ProcessDone();
            case HEARTBEAT -> new Message.Heartbeat();
            case SPARES_RELEASE -> new Message.SparesRelease();
            case RESTORATION_DUE -> {
                need(in, 1, "due");
                byte due = in.readByte();
                if (due != 0 && due != 1) {
                    throw new MalformedFrameException("restoration due must be 0 or 1, not " + due);
                }
                yield new Message.RestorationDue(due == 1);
            }
            case SPARE_WARM -> {
                need(in, 8, "piece bytes");
                long bytes = in.readLong();
                if (bytes < 0) {
                    throw new MalformedFrameException("a spare's piece size cannot be negative: " + bytes);
                }
                yield new Message.SpareWarm(bytes);
            }
            case PROCESS_STATE -> {
                int nativeRank = readRank(in, "native rank");
                need(in, 1, "state");
                byte stateCode = in.readByte();
                Message.ProcessState.State state = Message.ProcessState.State.fromCode(stateCode)
                        .orElseThrow(() -> new MalformedFrameException("unknown process state " + stateCode));
                yield new Message.ProcessState(nativeRank, state, readRank(in, "generation"));
            }
            case ROLLBACK -> {
                int generation = readRank(in, "generation");
                long epoch = readEpoch(in);
                long firstEpoch = readEpoch(in);
                int lostRank = readRank(in, "lost rank");
                int deadNative = readNativeOrNone(in, "dead native rank");
                int spareNative = readNativeOrNone(in, "spare native rank");
                boolean sdc = deadNative == Message.Rollback.NO_PROCESS && spareNative == Message.Rollback.NO_PROCESS;
                if (!sdc && (deadNative < 0 || spareNative < 0)) {
                    throw new MalformedFrameException("a rollback with dead " + deadNative + " and spare "
                            + spareNative);
                }
                if (generation < 1 || epoch < 1 || firstEpoch <= epoch) {
                    throw new MalformedFrameException("bad rollback: generation " + generation + " epoch " + epoch
                            + " first epoch " + firstEpoch);
                }
                need(in, 4, "ranks");
                int ranks = in.readInt();
                if (ranks <= lostRank || ranks > in.readableBytes() / 8) {
                    throw new MalformedFrameException("impossible rank count " + ranks);
                }
                List<Integer> cmp = new ArrayList<>(ranks);
                List<Integer> rep = new ArrayList<>(ranks);
                for (int i = 0; i < ranks; i++) {
                    cmp.add(readRank(in, "native rank"));
                    int r = in.readInt();
                    if (r < -1) {
                        throw new MalformedFrameException("bad replica native rank " + r);
                    }
                    rep.add(r);
                }
                if (!sdc && cmp.get(lostRank) != spareNative && rep.get(lostRank) != spareNative) {
                    throw new MalformedFrameException("the rollback's layout does not give rank " + lostRank
                            + " to spare " + spareNative);
                }
                yield new Message.Rollback(generation, epoch, firstEpoch, lostRank, deadNative, spareNative, cmp,
                        rep, readEpoch(in));
            }
            case SDC_DETECTED -> new Message.SdcDetected(readRank(in, "native rank"), readRank(in, "logical rank"),
                    readRank(in, "generation"), readText(in, "reason"));
            case REGISTERED -> new Message.Registered(readRank(in, "node id"));
            case UNOWNED_PID -> {
                need(in, 8, "pid");
                long pid = in.readLong();
                if (pid <= 0) {
                    throw new MalformedFrameException("pid " + pid);
                }
                yield new Message.UnownedPid(pid, readRank(in, "node id"));
            }
            case REGISTER_PEER -> new Message.RegisterPeer(readRank(in, "node id"));
            case PIECE_PUT -> new Message.PiecePut(readChunk(in));
            case PIECE_DATA -> new Message.PieceData(readChunk(in));
            case PIECE_ACK -> {
                long epoch = readEpoch(in);
                int rank = readRank(in, "rank");
                need(in, 1, "status");
                byte statusCode = in.readByte();
                Message.PieceAck.Status status = Message.PieceAck.Status.fromCode(statusCode)
                        .orElseThrow(() -> new MalformedFrameException("unknown piece status " + statusCode));
                yield new Message.PieceAck(epoch, rank, status, readText(in, "detail"));
            }
            case PIECE_GET -> new Message.PieceGet(readEpoch(in), readRank(in, "rank"));
            case PIECE_MISSING -> new Message.PieceMissing(readEpoch(in), readRank(in, "rank"), readText(in, "reason"));
            case PIECE_HELD -> {
                long epoch = readEpoch(in);
                int rank = readRank(in, "rank");
                long bytes = readSize(in, "piece bytes");
                need(in, 4, "crc");
                yield new Message.PieceHeld(epoch, rank, bytes, in.readInt());
            }
            case PIECES_ON_DISK -> {
                long epoch = readEpoch(in);
                need(in, 4, "count");
                int count = in.readInt();
                if (count < 0 || count > in.readableBytes() / PIECE_ENTRY_BYTES) {
                    throw new MalformedFrameException("impossible piece count " + count);
                }
                List<PieceEntry> pieces = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    int rank = readRank(in, "rank");
                    long bytes = readSize(in, "piece bytes");
                    pieces.add(new PieceEntry(rank, bytes, in.readInt()));
                }
                yield new Message.PiecesOnDisk(epoch, pieces);
            }
            case CHECKPOINT_DUE -> new Message.CheckpointDue(readEpoch(in));
            case CHECKPOINT_COST -> {
                long epoch = readEpoch(in);
                int rank = readRank(in, "rank");
                yield new Message.CheckpointCost(epoch, rank, readSize(in, "nanos"));
            }
            case CHECKPOINT_COMMITTED -> new Message.CheckpointCommitted(readEpoch(in));
            case PIECE_SHARED -> {
                long epoch = readEpoch(in);
                int rank = readRank(in, "rank");
                need(in, 4, "crc");
                int crc = in.readInt();
                long bytes = readSize(in, "piece bytes");
                String path = readText(in, "path");
                if (bytes > Message.MAX_PIECE_BYTES || path.isEmpty()) {
                    throw new MalformedFrameException("bad shared piece of " + bytes + " bytes in '" + path + "'");
                }
                yield new Message.PieceShared(epoch, rank, crc, bytes, path);
            }
            case PIECE_GET_SHARED -> new Message.PieceGetShared(readEpoch(in), readRank(in, "rank"),
                    readText(in, "marker"));
            case PROCESSES_DONE -> {
                need(in, 4, "count");
                int count = in.readInt();
                if (count < 0 || count > in.readableBytes() / 4) {
                    throw new MalformedFrameException("impossible native rank count " + count);
                }
                List<Integer> ranks = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ranks.add(readRank(in, "native rank"));
                }
                yield new Message.ProcessesDone(ranks);
            }
        };
        if (in.isReadable()) {
            throw new MalformedFrameException(in.readableBytes() + " trailing bytes after " + type);
        }
        return message;
    }

    /** rank + bytes + crc of one PIECES_ON_DISK entry. */
    private static final int PIECE_ENTRY_BYTES = 4 + 8 + 4;

    private static void writeChunk(ByteBuf out, Message.PieceChunk c) {
        out.writeLong(c.epoch());
        out.writeInt(c.rank());
        out.writeInt(c.crc32c());
        out.writeLong(c.pieceBytes());
        out.writeLong(c.offset());
        out.writeInt(c.bytes().length);
        out.writeBytes(c.bytes());
    }

    private static Message.PieceChunk readChunk(ByteBuf in) throws MalformedFrameException {
        long epoch = readEpoch(in);
        int rank = readRank(in, "rank");
        need(in, 4, "crc");
        int crc = in.readInt();
        long pieceBytes = readSize(in, "piece bytes");
        long offset = readSize(in, "offset");
        need(in, 4, "chunk length");
        int length = in.readInt();
        if (length < 0 || length > Message.PieceChunk.MAX_CHUNK_BYTES || pieceBytes > Message.MAX_PIECE_BYTES
                || offset + length > pieceBytes) {
            throw new MalformedFrameException("bad piece chunk " + offset + "+" + length + " of " + pieceBytes);
        }
        return new Message.PieceChunk(epoch, rank, crc, pieceBytes, offset, readBytes(in, length, "chunk"));
    }

    private static long readEpoch(ByteBuf in) throws MalformedFrameException {
        return readSize(in, "epoch");
    }

    private static long readSize(ByteBuf in, String what) throws MalformedFrameException {
        need(in, 8, what);
        long v = in.readLong();
        if (v < 0) {
            throw new MalformedFrameException("negative " + what + " " + v);
        }
        return v;
    }

    private static void writeText(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_TEXT_BYTES) {
            throw new IllegalArgumentException("text longer than " + MAX_TEXT_BYTES + " bytes");
        }
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }

    private static void writeFailedList(ByteBuf out, List<FailedProcess> failed) {
        out.writeInt(failed.size());
        for (FailedProcess p : failed) {
            out.writeLong(p.pid());
            out.writeInt(p.nativeRank());
            out.writeInt(p.logicalRank());
            out.writeByte(p.role().code());
            writeText(out, p.cause());
        }
    }

    private static List<FailedProcess> readFailedList(ByteBuf in) throws MalformedFrameException {
        need(in, 4, "count");
        int count = in.readInt();
        // A count the remaining bytes cannot possibly hold is rejected before allocating anything for it.
        if (count < 0 || count > in.readableBytes() / MIN_FAILED_PROCESS_BYTES) {
            throw new MalformedFrameException("impossible failed-process count " + count);
        }
        List<FailedProcess> failed = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            need(in, 8 + 4 + 4 + 1, "failed process");
            long pid = in.readLong();
            int nativeRank = readRank(in, "native rank");
            int logicalRank = readRank(in, "logical rank");
            Role role = readRole(in);
            failed.add(new FailedProcess(pid, nativeRank, logicalRank, role, readText(in, "cause")));
        }
        return failed;
    }

    private static String readText(ByteBuf in, String what) throws MalformedFrameException {
        need(in, 2, what + " length");
        int length = in.readUnsignedShort();
        if (length > MAX_TEXT_BYTES) {
            throw new MalformedFrameException(what + " longer than " + MAX_TEXT_BYTES + " bytes");
        }
        return new String(readBytes(in, length, what), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(ByteBuf in, int n, String what) throws MalformedFrameException {
        need(in, n, what);
        byte[] bytes = new byte[n];
        in.readBytes(bytes);
        return bytes;
    }

    /** A native rank, or -1 (none). */
    private static int readNativeOrNone(ByteBuf in, String what) throws MalformedFrameException {
        need(in, 4, what);
        int v = in.readInt();
        if (v < -1) {
            throw new MalformedFrameException("bad " + what + " " + v);
        }
        return v;
    }

    private static int readRank(ByteBuf in, String what) throws MalformedFrameException {
        need(in, 4, what);
        int v = in.readInt();
        if (v < 0) {
            throw new MalformedFrameException("negative " + what + " " + v);
        }
        return v;
    }

    private static Role readRole(ByteBuf in) throws MalformedFrameException {
        need(in, 1, "role");
        byte code = in.readByte();
        return Role.fromCode(code).orElseThrow(() -> new MalformedFrameException("unknown role " + code));
    }

    private static PeerRole readPeerRole(ByteBuf in) throws MalformedFrameException {
        need(in, 1, "peer role");
        byte code = in.readByte();
        return PeerRole.fromCode(code).orElseThrow(() -> new MalformedFrameException("unknown peer role " + code));
    }

    private static void need(ByteBuf in, int n, String what) throws MalformedFrameException {
        if (in.readableBytes() < n) {
            throw new MalformedFrameException("truncated " + what + ": need " + n + " bytes, have " + in.readableBytes());
        }
    }
}

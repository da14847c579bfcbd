package org.fthp.coordinator.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
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
            }
            case Message.ProcessDone d -> { }
            case Message.Registered r -> out.writeInt(r.nodeId());
            case Message.UnownedPid u -> {
                out.writeLong(u.pid());
                out.writeInt(u.nodeId());
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
                yield new Message.JobAbort(reason, lostRank);
            }
            case PROCESS_DONE -> new Message.ProcessDone();
            case REGISTERED -> new Message.Registered(readRank(in, "node id"));
            case UNOWNED_PID -> {
                need(in, 8, "pid");
                long pid = in.readLong();
                if (pid <= 0) {
                    throw new MalformedFrameException("pid " + pid);
                }
                yield new Message.UnownedPid(pid, readRank(in, "node id"));
            }
        };
        if (in.isReadable()) {
            throw new MalformedFrameException(in.readableBytes() + " trailing bytes after " + type);
        }
        return message;
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

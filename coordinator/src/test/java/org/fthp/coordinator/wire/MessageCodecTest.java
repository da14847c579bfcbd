package org.fthp.coordinator.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import org.fthp.checkpoint.store.PieceEntry;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(10)
class MessageCodecTest {
    private static final List<FailedProcess> FAILED = List.of(
            new FailedProcess(4242, 1, 1, Role.CMP, "connection-lost"),
            new FailedProcess(4343, 6, 2, Role.REP, "killed by proxy: signal 9 — ünïcode"));

    static Stream<Message> everyMessageType() {
        byte[] nonce = new byte[Message.NONCE_BYTES];
        Arrays.fill(nonce, (byte) 7);
        byte[] mac = new byte[Message.MAC_BYTES];
        Arrays.fill(mac, (byte) -3);
        return Stream.of(
                new Message.Hello(nonce),
                new Message.Auth(PeerRole.PROCESS, "process native 3 pid 99", mac),
                new Message.RegisterProcess(123456789L, 3, 1, Role.REP),
                new Message.RegisterCoordinator(5),
                new Message.FailureReport(FAILED),
                new Message.FailureReport(List.of()),
                new Message.FailureSet(2, FAILED),
                new Message.JobAbort("logical rank 1 lost all its copies", 1),
                new Message.JobAbort("a process (pid 77) died before it registered", Message.JobAbort.NO_RANK),
                new Message.JobAbort("rank 1 ended the job: uncaught java.lang.IllegalStateException", 1, 1),
                new Message.ProgramEnded(1, 77, "rank 1 called System.exit(77) before MPI_Finalize"),
                new Message.ProcessDone(),
                new Message.Heartbeat(),
                new Message.SparesRelease(),
                new Message.SpareWarm(64L << 20),
                new Message.ProcessState(7, Message.ProcessState.State.SPARE_READY, 0),
                new Message.ProcessState(3, Message.ProcessState.State.IN_BODY, 2),
                new Message.Rollback(1, 4, 6, 1, 1, 5, List.of(0, 5, 2), List.of(3, -1, -1), 2),
                new Message.Rollback(2, 8, 10, 1, 4, 6, List.of(0, 1, 2), List.of(3, 6, -1), 5),
                new Message.Rollback(3, 8, 12, 0, Message.Rollback.NO_PROCESS, Message.Rollback.NO_PROCESS,
                        List.of(0, 1), List.of(2, -1), 0),
                new Message.SdcDetected(2, 0, 1, "silent data corruption detected: rank=0 epoch=3 what=state"),
                new Message.RestorationDue(true),
                new Message.RestorationDue(false),
                new Message.ProcessesDone(List.of(0, 5, 3)),
                new Message.ProcessesDone(List.of()),
                new Message.Registered(0),
                new Message.UnownedPid(4_194_303L, 2),
                new Message.RegisterPeer(3),
                new Message.PiecePut(new Message.PieceChunk(7, 2, 0xCAFEBABE, 10, 4, new byte[] {1, 2, 3})),
                new Message.PiecePut(new Message.PieceChunk(0, 0, 0, 0, 0, new byte[0])),
                new Message.PieceAck(7, 2, Message.PieceAck.Status.HELD_WITH_PARTNER, ""),
                new Message.PieceAck(7, 2, Message.PieceAck.Status.REFUSED, "node 1 holds 1.0 GiB of its 1.0 GiB"),
                new Message.PieceGet(7, 2),
                new Message.PieceData(new Message.PieceChunk(7, 2, -1, 3, 0, new byte[] {9, 8, 7})),
                new Message.PieceMissing(7, 2, "no coordinator holds it"),
                new Message.PieceHeld(7, 2, 1L << 33, 0x1234),
                new Message.PiecesOnDisk(7, List.of(new PieceEntry(0, 100, 5), new PieceEntry(3, 1L << 32, -7))),
                new Message.PiecesOnDisk(8, List.of()),
                new Message.CheckpointDue(12),
                new Message.CheckpointCost(7, 2, 123_456_789L),
                new Message.CheckpointCommitted(7),
                new Message.PieceAck(7, 2, Message.PieceAck.Status.HELD_COPYING, "copying to node 1"),
                new Message.PieceAck(7, 2, Message.PieceAck.Status.NOT_SHARED, "cannot see it"),
                new Message.PieceShared(7, 2, 0xCAFEBABE, 1L << 30, "/dev/shm/fthp-put-4000-77-7-2"),
                new Message.PieceGetShared(7, 2, "/dev/shm/fthp-seen-4000-77-1"));
    }

    @Test
    void everyTypeIsCovered() {
        assertEquals(MessageType.values().length,
                everyMessageType().map(Message::type).distinct().count());
    }

    @ParameterizedTest
    @MethodSource("everyMessageType")
    void roundTripsThroughCodec(Message message) throws Exception {
        ByteBuf buf = Unpooled.buffer();
        MessageCodec.encode(message, buf);
        assertEquals(message, MessageCodec.decode(buf));
        assertFalse(buf.isReadable());
    }

    @ParameterizedTest
    @MethodSource("everyMessageType")
    void roundTripsThroughPipeline(Message message) {
        EmbeddedChannel sender = pipeline();
        EmbeddedChannel receiver = pipeline();
        assertTrue(sender.writeOutbound(message));
        ByteBuf frame = sender.readOutbound();
        assertEquals(frame.readableBytes() - 4, frame.getInt(0), "length prefix counts type + payload");
        receiver.writeInbound(frame);
        assertEquals(message, receiver.readInbound());
        sender.finishAndReleaseAll();
        receiver.finishAndReleaseAll();
    }

    @ParameterizedTest
    @MethodSource("everyMessageType")
    void everyTruncationIsRejected(Message message) {
        byte[] whole = encode(message);
        for (int cut = 0; cut < whole.length; cut++) {
            ByteBuf prefix = Unpooled.wrappedBuffer(whole, 0, cut);
            // A body of just the type byte is complete for PROCESS_DONE and HEARTBEAT; every other cut must fail.
            if ((message instanceof Message.ProcessDone || message instanceof Message.Heartbeat
                    || message instanceof Message.SparesRelease) && cut == 1) {
                continue;
            }
            assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(prefix),
                    message.type() + " cut to " + cut + " bytes");
        }
    }

    @ParameterizedTest
    @MethodSource("everyMessageType")
    void trailingBytesAreRejected(Message message) {
        byte[] whole = encode(message);
        byte[] longer = Arrays.copyOf(whole, whole.length + 1);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(Unpooled.wrappedBuffer(longer)));
    }

    @Test
    void truncatedFrameIsRejectedByPipeline() {
        byte[] body = encode(new Message.FailureSet(3, FAILED));
        ByteBuf frame = Unpooled.buffer();
        frame.writeInt(body.length - 1); // a consistent length prefix around a body missing its last byte
        frame.writeBytes(body, 0, body.length - 1);
        EmbeddedChannel receiver = pipeline();
        DecoderException e = assertThrows(DecoderException.class, () -> receiver.writeInbound(frame));
        assertTrue(e.getCause() instanceof MalformedFrameException, e.toString());
        receiver.finishAndReleaseAll();
    }

    @Test
    void unknownTypeIsRejected() {
        assertThrows(MalformedFrameException.class,
                () -> MessageCodec.decode(Unpooled.wrappedBuffer(new byte[] {(byte) 0x7f})));
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(Unpooled.buffer()));
    }

    @Test
    void impossibleCountsAndBadEnumsAreRejected() {
        ByteBuf hugeCount = Unpooled.buffer();
        hugeCount.writeByte(MessageType.FAILURE_REPORT.code());
        hugeCount.writeInt(Integer.MAX_VALUE);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(hugeCount));

        ByteBuf badRole = Unpooled.buffer();
        badRole.writeByte(MessageType.REGISTER_PROCESS.code());
        badRole.writeLong(1).writeInt(0).writeInt(0).writeByte(9);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(badRole));

        ByteBuf negativeRank = Unpooled.buffer();
        negativeRank.writeByte(MessageType.REGISTER_COORDINATOR.code());
        negativeRank.writeInt(-1);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(negativeRank));

        ByteBuf abortBelowNoRank = Unpooled.buffer();
        abortBelowNoRank.writeByte(MessageType.JOB_ABORT.code());
        abortBelowNoRank.writeShort(0).writeInt(-2);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(abortBelowNoRank));

        ByteBuf zeroPid = Unpooled.buffer();
        zeroPid.writeByte(MessageType.UNOWNED_PID.code());
        zeroPid.writeLong(0).writeInt(1);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(zeroPid));

        ByteBuf negativeNode = Unpooled.buffer();
        negativeNode.writeByte(MessageType.UNOWNED_PID.code());
        negativeNode.writeLong(4242).writeInt(-1);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(negativeNode));
    }

    @Test
    void aFullChunkFitsAFrame() {
        byte[] data = new byte[Message.PieceChunk.MAX_CHUNK_BYTES];
        Arrays.fill(data, (byte) 0x5a);
        Message put = new Message.PiecePut(new Message.PieceChunk(Long.MAX_VALUE, Integer.MAX_VALUE, 1,
                Message.MAX_PIECE_BYTES, Message.MAX_PIECE_BYTES - data.length, data));
        EmbeddedChannel sender = pipeline();
        EmbeddedChannel receiver = pipeline();
        assertTrue(sender.writeOutbound(put));
        receiver.writeInbound((ByteBuf) sender.readOutbound());
        assertEquals(put, receiver.readInbound());
        assertTrue(((Message.PiecePut) put).chunk().isLast());
        sender.finishAndReleaseAll();
        receiver.finishAndReleaseAll();
    }

    @Test
    void chunksBeyondTheirPieceOrWithBadStatusAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Message.PieceChunk(0, 0, 0, 2, 1, new byte[2]));
        ByteBuf past = Unpooled.buffer();
        past.writeByte(MessageType.PIECE_PUT.code());
        past.writeLong(1).writeInt(0).writeInt(0).writeLong(2).writeLong(1).writeInt(2).writeBytes(new byte[2]);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(past));
        ByteBuf hugeLength = Unpooled.buffer();
        hugeLength.writeByte(MessageType.PIECE_DATA.code());
        hugeLength.writeLong(1).writeInt(0).writeInt(0).writeLong(1L << 30).writeLong(0).writeInt(1 << 20);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(hugeLength));
        ByteBuf badStatus = Unpooled.buffer();
        badStatus.writeByte(MessageType.PIECE_ACK.code());
        badStatus.writeLong(1).writeInt(0).writeByte(9).writeShort(0);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(badStatus));
        ByteBuf hugeCount = Unpooled.buffer();
        hugeCount.writeByte(MessageType.PIECES_ON_DISK.code());
        hugeCount.writeLong(1).writeInt(1000);
        assertThrows(MalformedFrameException.class, () -> MessageCodec.decode(hugeCount));
    }

    @Test
    void oversizedLengthPrefixFailsFast() {
        EmbeddedChannel receiver = pipeline();
        ByteBuf frame = Unpooled.buffer();
        frame.writeInt(MessageCodec.MAX_FRAME_BYTES - 3); // with its 4-byte prefix, one byte over the limit
        frame.writeByte(MessageType.PROCESS_DONE.code());
        assertThrows(TooLongFrameException.class, () -> receiver.writeInbound(frame));
        receiver.finishAndReleaseAll();
    }

    @Test
    void secretMacsBindNonceRoleAndIdentity() {
        JobSecret secret = JobSecret.generate();
        Message.Hello hello = Handshake.newHello();
        Message.Auth auth = Handshake.answer(secret, hello, PeerRole.PROCESS, "p");
        assertTrue(Handshake.verify(secret, hello, auth));
        assertFalse(Handshake.verify(secret, Handshake.newHello(), auth));
        assertFalse(Handshake.verify(JobSecret.generate(), hello, auth));
        assertFalse(Handshake.verify(secret, hello, new Message.Auth(PeerRole.COORDINATOR, "p", auth.mac())));
        assertFalse(Handshake.verify(secret, hello, new Message.Auth(PeerRole.PROCESS, "q", auth.mac())));
        assertEquals(secret.toHex(), JobSecret.fromHex(secret.toHex()).toHex());
        assertFalse(secret.toString().contains(secret.toHex()));
    }

    private static byte[] encode(Message message) {
        ByteBuf buf = Unpooled.buffer();
        MessageCodec.encode(message, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    private static EmbeddedChannel pipeline() {
        EmbeddedChannel ch = new EmbeddedChannel();
        FramePipeline.install(ch.pipeline());
        return ch;
    }
}

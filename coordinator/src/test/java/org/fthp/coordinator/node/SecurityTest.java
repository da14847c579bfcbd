package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.testing.EmulatedJob;
import org.fthp.coordinator.testing.RecordingListener;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.MessageCodec;
import org.fthp.coordinator.wire.MessageType;
import org.fthp.coordinator.wire.NodeAddress;
import org.fthp.coordinator.wire.PeerRole;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile or broken peers are disconnected and can neither inject a failure nor abort the job, and the coordinator
 * keeps serving legitimate processes afterwards. Attacks go to the primary and to a plain member node.
 */
@Timeout(30)
class SecurityTest {
    private static final Duration AUTH_DEADLINE = Duration.ofMillis(400);
    private static final int CLOSE_WITHIN_MS = 3000;

    private EmulatedJob job;

    @BeforeEach
    void setUp() throws Exception {
        // 2 nodes, one group; N = 2, M = 2 → native 0,1 on node 0, native 2,3 on node 1. With M = 2, any injected
        // "failure" of native 0 would at least produce a failure set, so silence proves nothing got through.
        job = new EmulatedJob(2, 2, 2, 2, AUTH_DEADLINE);
    }

    @AfterEach
    void tearDown() {
        job.close();
    }

    @Test
    void randomBytesAreDroppedAndNothingPropagates() throws Exception {
        Random random = new Random(0xF7_4A_11L);
        int[] sizes = {1, 3, 4, 5, 37, 100, 1000, 65_535, 65_537, 200_000};
        for (int node = 0; node < 2; node++) {
            for (int size : sizes) {
                byte[] garbage = new byte[size];
                random.nextBytes(garbage);
                try (Socket s = open(node)) {
                    writeQuietly(s, garbage);
                    assertClosedByServer(s, "random " + size + " bytes to node " + node);
                }
            }
        }
        assertNothingPropagatedAndStillServing();
    }

    @Test
    void wrongSecretIsDropped() throws Exception {
        JobSecret wrong = JobSecret.generate();
        for (int node = 0; node < 2; node++) {
            try (Socket s = open(node)) {
                Message.Hello hello = readHello(s);
                byte[] mac = wrong.mac(hello.nonce(), PeerRole.PROCESS, "intruder");
                send(s, new Message.Auth(PeerRole.PROCESS, "intruder", mac));
                send(s, new Message.RegisterProcess(1, 0, 0, Role.CMP));
                assertClosedByServer(s, "wrong secret");
            }
        }
        assertNothingPropagatedAndStillServing();
    }

    @Test
    void failureReportWithoutAuthIsDropped() throws Exception {
        FailedProcess forged = new FailedProcess(EmulatedJob.FAKE_PID_BASE, 0, 0, Role.CMP, "forged");
        for (int node = 0; node < 2; node++) {
            try (Socket s = open(node)) {
                readHello(s);
                send(s, new Message.FailureReport(List.of(forged)));
                assertClosedByServer(s, "FAILURE_REPORT before AUTH");
            }
            try (Socket s = open(node)) {
                readHello(s);
                send(s, new Message.JobAbort("forged", 0));
                assertClosedByServer(s, "JOB_ABORT before AUTH");
            }
        }
        assertNothingPropagatedAndStillServing();
    }

    @Test
    void processCannotSendFailureReportsEvenAfterAuth() throws Exception {
        try (Socket s = open(1)) {
            authenticate(s, PeerRole.PROCESS);
            send(s, new Message.FailureReport(List.of(new FailedProcess(1, 0, 0, Role.CMP, "forged"))));
            assertClosedByServer(s, "FAILURE_REPORT from an authenticated but unregistered process");
        }
        assertNothingPropagatedAndStillServing();
    }

    @Test
    void oversizedLengthPrefixIsDropped() throws Exception {
        for (int length : new int[] {MessageCodec.MAX_FRAME_BYTES - 3, Integer.MAX_VALUE, -1}) {
            try (Socket s = open(0)) {
                readHello(s);
                ByteBuf frame = Unpooled.buffer().writeInt(length).writeByte(MessageType.AUTH.code());
                writeQuietly(s, ByteBufBytes.of(frame));
                assertClosedByServer(s, "length prefix " + length);
            }
        }
        assertNothingPropagatedAndStillServing();
    }

    @Test
    void unknownTypeAfterValidAuthIsDropped() throws Exception {
        for (int node = 0; node < 2; node++) {
            try (Socket s = open(node)) {
                authenticate(s, PeerRole.PROCESS);
                writeQuietly(s, new byte[] {0, 0, 0, 3, (byte) 0x63, 1, 2});
                assertClosedByServer(s, "unknown type after AUTH");
            }
        }
        assertNothingPropagatedAndStillServing();
    }

    @Test
    void silentConnectionIsClosedAtTheAuthDeadline() throws Exception {
        try (Socket s = open(1)) {
            readHello(s);
            assertClosedByServer(s, "silent peer");
        }
        assertNothingPropagatedAndStillServing();
    }

    // ---- helpers ----

    private void assertNothingPropagatedAndStillServing() throws Exception {
        EmulatedJob.assertAllQuiet(job.listeners, Duration.ofMillis(500));
        for (int node = 0; node < 2; node++) {
            assertEquals(2, job.hierarchy.node(node).liveProcessCount(), "legitimate processes on node " + node);
            assertEquals(0L, job.hierarchy.node(node).latestFailureSet().map(s -> s.epoch()).orElse(0L));
        }
        // A new legitimate process on the attacked member node registers and hears about a real failure.
        RecordingListener newcomer = new RecordingListener();
        try (CoordinatorClient late = job.connect(1, 7, 1, Role.CMP, newcomer)) {
            job.clients.get(0).close();
            RecordingListener.SetEvent set = newcomer.nextSet(Duration.ofSeconds(5));
            assertEquals(1, set.epoch());
            assertEquals(0, set.failed().get(0).nativeRank());
            late.finish();
        }
    }

    private Socket open(int node) throws IOException {
        NodeAddress a = job.hierarchy.address(node);
        Socket s = new Socket(a.host(), a.port());
        s.setSoTimeout(CLOSE_WITHIN_MS);
        return s;
    }

    private Message.Hello readHello(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        int length = in.readInt();
        byte[] body = new byte[length];
        in.readFully(body);
        try {
            return (Message.Hello) MessageCodec.decode(Unpooled.wrappedBuffer(body));
        } catch (Exception e) {
            throw new AssertionError("server did not start with HELLO", e);
        }
    }

    private void authenticate(Socket s, PeerRole role) throws IOException {
        Message.Hello hello = readHello(s);
        send(s, new Message.Auth(role, "test peer", job.secret.mac(hello.nonce(), role, "test peer")));
    }

    private static void send(Socket s, Message m) throws IOException {
        ByteBuf body = Unpooled.buffer();
        MessageCodec.encode(m, body);
        ByteBuf frame = Unpooled.buffer().writeInt(body.readableBytes()).writeBytes(body);
        s.getOutputStream().write(ByteBufBytes.of(frame));
        s.getOutputStream().flush();
    }

    /** The server may reset the connection while we are still writing; that is the expected outcome. */
    private static void writeQuietly(Socket s, byte[] bytes) {
        try {
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
        } catch (IOException expected) {
            // closed by the server mid-write
        }
    }

    private static void assertClosedByServer(Socket s, String what) {
        try {
            InputStream in = s.getInputStream();
            byte[] sink = new byte[4096];
            while (in.read(sink) >= 0) {
                // discard HELLO and anything else until end-of-stream
            }
        } catch (SocketTimeoutException e) {
            fail(what + ": server did not close the connection within " + CLOSE_WITHIN_MS + " ms");
        } catch (IOException reset) {
            // connection reset by the server: closed, as required
        }
    }

    private static final class ByteBufBytes {
        static byte[] of(ByteBuf buf) {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        }
    }
}

package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sink with hand-written frames (the ranks' side is the replication module's RemoteRankOutput): a copy
 * killed in the middle of a frame, and its replica resending from what was delivered, print every byte once.
 */
@Timeout(30)
class RankOutputSinkTest {

    private static final String SECRET = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    /** One copy's connection, speaking the sink's protocol. */
    private static final class Copy implements AutoCloseable {
        final Socket socket;
        final DataOutputStream out;
        final DataInputStream in;

        Copy(RankOutputSink sink, int rank, String secretHex) throws Exception {
            String[] at = sink.address().split(":");
            socket = new Socket(at[0], Integer.parseInt(at[1]));
            out = new DataOutputStream(socket.getOutputStream());
            in = new DataInputStream(socket.getInputStream());
            byte[] nonce = new byte[32];
            in.readFully(nonce);
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(HexFormat.of().parseHex(secretHex), "HmacSHA256"));
            mac.update("fthp-output".getBytes(StandardCharsets.US_ASCII));
            out.write(mac.doFinal(nonce));
            out.writeInt(rank);
        }

        void data(int stream, long offset, String text) throws IOException {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            out.writeByte('D');
            out.writeByte(stream);
            out.writeLong(offset);
            out.writeInt(b.length);
            out.write(b);
            out.flush();
        }

        long delivered(int stream) throws IOException {
            out.writeByte('Q');
            out.writeByte(stream);
            out.flush();
            return in.readLong();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void aKilledCopyAndItsResendingReplicaPrintEveryByteOnceInOrder() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        RankOutputSink sink = RankOutputSink.start("127.0.0.1", SECRET, 2, stdout, stderr);
        try (Copy cmp = new Copy(sink, 0, SECRET); Copy rep = new Copy(sink, 0, SECRET);
             Copy other = new Copy(sink, 1, SECRET)) {
            cmp.data(0, 0, "line 1\n");
            cmp.data(0, 7, "line 2\nli");
            cmp.data(1, 0, "warn\n");
            other.data(0, 0, "rank 1\n");
            // killed in the middle of a frame: the header says 7 bytes, 3 arrive
            cmp.out.writeByte('D');
            cmp.out.writeByte(0);
            cmp.out.writeLong(16);
            cmp.out.writeInt(7);
            cmp.out.write("ne ".getBytes(StandardCharsets.UTF_8));
            cmp.out.flush();
            assertEquals(7, other.delivered(0), "a query answers once every earlier frame of its connection is in");
            long from = waitFor(rep, 16);
            // the promoted replica sends from there; a frame it had sent ahead overlaps and adds nothing twice
            rep.data(0, from, "ne 3\n");
            rep.data(0, from, "ne 3\nline 4\n");
            rep.data(0, 100, "beyond a gap\n");
            cmp.close();
        }
        sink.close();
        assertEquals("line 1\nline 2\nline 3\nline 4\nrank 1\n".length(), stdout.size());
        String printed = stdout.toString(StandardCharsets.UTF_8);
        assertEquals("line 1\nline 2\nline 3\nline 4\n", printed.replace("rank 1\n", ""), printed);
        assertEquals("warn\n", stderr.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aConnectionWithoutTheSecretIsRefused() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        RankOutputSink sink = RankOutputSink.start("127.0.0.1", SECRET, 1, stdout, new ByteArrayOutputStream());
        try (Copy stranger = new Copy(sink, 0, SECRET.replace('0', '1'))) {
            stranger.out.flush();
            assertThrows(IOException.class, () -> {
                for (int i = 0; i < 100; i++) {
                    stranger.data(0, 0, "not the job's\n");
                    Thread.sleep(20);
                }
            });
        }
        sink.close();
        assertEquals(0, stdout.size());
        assertEquals(1, sink.refused());
    }

    /** The delivered length once it reaches {@code at} (frames of other connections arrive on their own threads). */
    private static long waitFor(Copy copy, long at) throws Exception {
        long d;
        while ((d = copy.delivered(0)) < at) {
            Thread.sleep(10);
        }
        return d;
    }
}

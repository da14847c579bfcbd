package org.fthp.replication.output;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.fthp.coordinator.wire.JobSecret;

/**
 * A rank's output on a multi-host job: sent to fthp-run's output sink (the launcher's {@code RankOutputSink},
 * which speaks the same protocol) as frames that carry their byte offset in the rank's stream. The sink prints
 * each byte once, in order: a frame's part below what it has delivered is dropped (the twins print the same
 * bytes at the same offsets, so a dead copy's frames still in flight and the promoted replica's resend are the
 * same bytes), and a frame cut by its sender's death is dropped whole. A promoted replica asks the sink how far
 * the rank's output got ({@link #written}) and sends from there.
 *
 * <p>Protocol, on one TCP connection per copy: the sink sends a 32-byte nonce; the copy answers with
 * HMAC-SHA256(job secret, "fthp-output" + nonce) and its logical rank (int); then frames: {@code 'D' stream(byte)
 * offset(long) length(int) bytes}, and {@code 'Q' stream(byte)}, answered with the delivered length (long).
 */
final class RemoteRankOutput implements RankOutputTarget {

    /** Set by fthp-run on a multi-host job: {@code host:port} of its output sink. */
    static final String SINK_ENV = "FTHP_OUTPUT_SINK";
    static final byte[] CONTEXT = "fthp-output".getBytes(StandardCharsets.US_ASCII);
    static final int NONCE_BYTES = 32;
    static final byte DATA = 'D';
    static final byte QUERY = 'Q';
    private static final int CONNECT_MILLIS = 10_000;

    /** The connection lives as long as the process: the kernel closes it when the copy ends or dies. */
    private final DataOutputStream out;
    private final DataInputStream in;
    /** The offset of the next byte sent on each stream. */
    private final long[] next = new long[2];

    private RemoteRankOutput(Socket socket) throws IOException {
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 8192));
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    static RemoteRankOutput connect(String address, int logical) throws IOException {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IOException(SINK_ENV + " is not host:port: " + address);
        }
        String secret = System.getenv(JobSecret.ENV);
        if (secret == null || secret.isBlank()) {
            throw new IOException("no " + JobSecret.ENV + " to authenticate to fthp-run's output sink");
        }
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1))), CONNECT_MILLIS);
            RemoteRankOutput o = new RemoteRankOutput(socket);
            byte[] nonce = new byte[NONCE_BYTES];
            o.in.readFully(nonce);
            o.out.write(JobSecret.fromHex(secret).mac(CONTEXT, nonce));
            o.out.writeInt(logical);
            o.out.flush();
            return o;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw new IOException("cannot reach fthp-run's output sink at " + address + ": " + e.getMessage(), e);
        }
    }


    @Override
    public OutputStream append(int stream) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (len > 0) {
                    send(stream, b, off, len);
                }
            }
        };
    }

    private synchronized void send(int stream, byte[] b, int off, int len) throws IOException {
        out.writeByte(DATA);
        out.writeByte(stream);
        out.writeLong(next[stream]);
        out.writeInt(len);
        out.write(b, off, len);
        out.flush();
        next[stream] += len;
    }

    /**
     * Asks the sink; what {@link #append}'s stream sends next starts there. When the sink cannot be asked
     * (fthp-run is gone) the stream's own position: nothing sent from here can reach the user anyway.
     */
    @Override
    public synchronized long written(int stream) {
        try {
            out.writeByte(QUERY);
            out.writeByte(stream);
            out.flush();
            long delivered = in.readLong();
            next[stream] = delivered;
            return delivered;
        } catch (IOException e) {
            return next[stream];
        }
    }
}

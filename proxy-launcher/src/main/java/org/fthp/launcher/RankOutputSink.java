package org.fthp.launcher;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The output of a replicated job's ranks when their copies run on several hosts: each printing copy sends its
 * rank's stdout and stderr here as frames that carry their byte offset (the ranks' side is the replication
 * module's {@code RemoteRankOutput}, with the protocol), and this sink prints every byte of a rank's stream once
 * and in order, whole lines at a time as {@link RankOutputRelay} does for files.
 *
 * <p>Why offsets make a kill harmless: both copies of a rank print the same bytes at the same offsets. A frame
 * is applied only from {@code delivered} on (what comes before was printed already, by whichever copy sent it);
 * a frame cut short by its sender's death is never applied, so {@code delivered} only counts bytes that arrived
 * whole. A promoted replica asks for {@code delivered} and sends from there, so a frame of its dead twin that
 * arrives later overlaps and adds nothing twice; one that never arrives is sent again by the replica.
 *
 * <p>Connections authenticate with the job secret (HMAC-SHA256 over a fresh nonce, as the coordinators do);
 * one without it is closed before anything it sends is read as output.
 */
final class RankOutputSink implements AutoCloseable {

    /** Read by the ranks: where this sink listens ({@code host:port}). */
    static final String ADDRESS_ENV = "FTHP_OUTPUT_SINK";
    private static final byte[] CONTEXT = "fthp-output".getBytes(StandardCharsets.US_ASCII);
    private static final int NONCE_BYTES = 32;
    private static final byte DATA = 'D';
    private static final byte QUERY = 'Q';
    private static final int MAX_FRAME = 16 << 20;
    /** A line longer than this is printed in pieces. */
    private static final int MAX_PENDING = 64 << 10;
    private static final int AUTH_MILLIS = 10_000;
    /** How long {@link #close} waits for connections still draining (the ranks have ended by then). */
    private static final long DRAIN_MILLIS = 3_000;

    private final ServerSocket server;
    private final byte[] secret;
    private final Stream[] streams;
    private final Thread acceptor;
    private final List<Thread> readers = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong gaps = new AtomicLong();
    private volatile boolean closed;

    private RankOutputSink(ServerSocket server, byte[] secret, int ranks, OutputStream stdout, OutputStream stderr,
                           PrintedPositions printed, boolean continuing) {
        this.server = server;
        this.secret = secret;
        this.streams = new Stream[ranks * 2];
        for (int i = 0; i < 2 * ranks; i++) {
            streams[i] = new Stream(i % 2 == 0 ? stdout : stderr, printed, i, continuing);
        }
        this.acceptor = new Thread(this::acceptUntilClosed, "fthp-run-output-sink");
        acceptor.setDaemon(true);
    }

    /** Listens on {@code bindAddress} (this host's address on the job's network), port chosen by the system. */
    static RankOutputSink start(String bindAddress, String secretHex, int ranks, OutputStream stdout,
                                OutputStream stderr) throws LaunchException {
        return start(bindAddress, secretHex, ranks, stdout, stderr, null, false);
    }

    /**
     * As above, recording how far each stream is printed in {@code printed} (the checkpoint directory's); with
     * {@code continuing} an earlier job printed up to there, and each stream goes on from that point (a resumed
     * rank sends from it; if that job's last bytes were lost in flight, from the rank's checkpoint, once).
     */
    static RankOutputSink start(String bindAddress, String secretHex, int ranks, OutputStream stdout,
                                OutputStream stderr, PrintedPositions printed, boolean continuing)
            throws LaunchException {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getByName(bindAddress), 0));
            RankOutputSink sink = new RankOutputSink(server, HexFormat.of().parseHex(secretHex), ranks, stdout,
                    stderr, printed, continuing);
            sink.acceptor.start();
            return sink;
        } catch (IOException e) {
            throw LaunchException.environment("cannot listen for the ranks' output on " + bindAddress + ": "
                    + e.getMessage());
        }
    }

    /** {@code host:port} for {@link #ADDRESS_ENV}. */
    String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    /** Connections closed because they did not authenticate. */
    long refused() {
        return refused.get();
    }

    private void acceptUntilClosed() {
        while (!closed) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                Thread reader = new Thread(() -> serve(s), "fthp-run-output-" + s.getPort());
                reader.setDaemon(true);
                readers.add(reader);
                reader.start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("fthp-run: output sink: " + e.getMessage());
                }
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            byte[] nonce = new byte[NONCE_BYTES];
            new SecureRandom().nextBytes(nonce);
            out.write(nonce);
            out.flush();
            socket.setSoTimeout(AUTH_MILLIS);
            byte[] presented = new byte[32];
            in.readFully(presented);
            int rank = in.readInt();
            if (!MessageDigest.isEqual(presented, mac(nonce)) || rank < 0 || 2 * rank >= streams.length) {
                refused.incrementAndGet();
                return;
            }
            socket.setSoTimeout(0);
            while (true) {
                byte kind = in.readByte();
                int stream = in.readByte();
                if (stream != 0 && stream != 1) {
                    return;
                }
                Stream target = streams[2 * rank + stream];
                if (kind == QUERY) {
                    out.writeLong(target.delivered());
                    out.flush();
                } else if (kind == DATA) {
                    long offset = in.readLong();
                    int length = in.readInt();
                    if (length < 0 || length > MAX_FRAME) {
                        return;
                    }
                    byte[] bytes = new byte[length];
                    in.readFully(bytes);   // a frame cut by its sender's death ends here, unapplied
                    if (!target.apply(offset, bytes)) {
                        gaps.incrementAndGet();
                    }
                } else {
                    return;
                }
            }
        } catch (EOFException e) {
            // the copy ended (or died): whatever it sent whole is applied
        } catch (IOException e) {
            // a reset connection (its sender died) or close(): nothing is half-applied either way
        }
    }

    private byte[] mac(byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(CONTEXT);
            return mac.doFinal(nonce);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Waits for the copies' connections to end, prints every unfinished line, and stops listening. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        long deadline = System.currentTimeMillis() + DRAIN_MILLIS;
        for (Thread reader : new ArrayList<>(readers)) {
            try {
                reader.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // gone already
            }
        }
        for (Stream s : streams) {
            s.finish();
        }
        if (gaps.get() > 0) {
            System.err.println("fthp-run: " + gaps.get() + " output frame(s) started beyond what had arrived and were"
                    + " dropped");
        }
    }

    /** One rank's stdout or stderr: the bytes delivered so far and the unfinished line. */
    private static final class Stream {
        private final OutputStream sink;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        /** Where printing is recorded (null: nowhere), and this stream's index there. */
        private final PrintedPositions printed;
        private final int index;
        private long delivered;
        /** The stream's bytes before this offset are printed. */
        private long emittedTo;
        /** An earlier job's stream continues: its first frame may start beyond what that job printed. */
        private boolean mayJump;

        Stream(OutputStream sink, PrintedPositions printed, int index, boolean continuing) {
            this.sink = sink;
            this.printed = printed;
            this.index = index;
            if (continuing && printed != null) {
                delivered = printed.get(index);
                emittedTo = delivered;
                mayJump = true;
            }
        }

        synchronized long delivered() {
            return delivered;
        }

        /** Applies the part of a frame beyond {@code delivered}; false for a frame that starts beyond it. */
        synchronized boolean apply(long offset, byte[] bytes) {
            if (offset > delivered && mayJump) {
                // the earlier job printed less than its checkpoint holds (its last lines were in flight when it
                // ended): those bytes are gone; the stream goes on from the resumed rank's position
                delivered = offset;
                emittedTo = offset;
            }
            mayJump = false;
            if (offset > delivered) {
                return false;
            }
            int from = (int) Math.min(bytes.length, delivered - offset);
            for (int i = from; i < bytes.length; i++) {
                pending.write(bytes[i]);
                if (bytes[i] == '\n' || pending.size() >= MAX_PENDING) {
                    emit();
                }
            }
            delivered += bytes.length - from;
            return true;
        }

        synchronized void finish() {
            if (pending.size() > 0) {
                emit();
            }
        }

        private void emit() {
            // one write per line under the sink's lock: a line is never cut by another rank's
            synchronized (sink) {
                try {
                    sink.write(pending.toByteArray());
                    sink.flush();
                } catch (IOException e) {
                    // the terminal is gone; nothing else to tell
                }
            }
            emittedTo += pending.size();
            pending.reset();
            if (printed != null) {
                printed.printed(index, emittedTo);
            }
        }
    }
}

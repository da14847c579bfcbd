package org.fthp.coordinator.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import org.fthp.coordinator.wire.NodeAddress;

/**
 * A TCP relay on loopback in front of a coordinator, which can go silent: after {@link #cut} it drops every byte
 * either way but keeps both connections open, as a network cut does (no FIN, no reset: only silence shows it).
 */
public final class SilentRelay implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new ArrayList<>();
    private volatile boolean cut;

    public SilentRelay(NodeAddress target) throws IOException {
        this.target = target.toSocketAddress();
        this.listener = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "silent-relay-accept");
        accept.setDaemon(true);
        accept.start();
    }

    public NodeAddress address() {
        return new NodeAddress("127.0.0.1", listener.getLocalPort());
    }

    /** From now on nothing gets through, and nothing is closed. */
    public void cut() {
        cut = true;
    }

    private void acceptLoop() {
        try {
            while (true) {
                Socket in = listener.accept();
                Socket out = new Socket(target.getAddress(), target.getPort());
                synchronized (sockets) {
                    sockets.add(in);
                    sockets.add(out);
                }
                pump(in, out);
                pump(out, in);
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    if (!cut) {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                }
                if (!cut) {
                    to.shutdownOutput();
                }
            } catch (IOException e) {
                // one side closed
            }
        }, "silent-relay-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        synchronized (sockets) {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}

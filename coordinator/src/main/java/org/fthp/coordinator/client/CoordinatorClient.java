package org.fthp.coordinator.client;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;
import org.fthp.coordinator.wire.PeerRole;
import org.fthp.coordinator.wire.UpstreamConnection;

/**
 * The connection an MPI process keeps to its local node coordinator from {@code MPI_Init} to the end.
 *
 * <p>Staying connected is the failure detector: when this process dies the kernel closes the socket and the
 * coordinator sees end-of-stream. That also means a plain {@link #close()} looks exactly like a death to the
 * coordinator; a process that ends normally calls {@link #finish()}, which first sends PROCESS_DONE.
 *
 * <p>Listener callbacks run on this client's own single Netty event-loop thread (see {@link FailureListener}).
 */
public final class CoordinatorClient implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(CoordinatorClient.class.getName());
    /** {@code host:port} of the local node coordinator, set by fthp-run. */
    public static final String ENV_COORDINATOR = "FTHP_COORDINATOR";

    private final EventLoopGroup group;
    private final Channel channel;

    private CoordinatorClient(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether the connection to the coordinator is still up. */
    public boolean isConnected() {
        return channel.isActive();
    }

    /** Normal end: tell the coordinator this process finished, so the disconnect is not taken as a failure. */
    public void finish() {
        if (channel.isActive()) {
            channel.writeAndFlush(new Message.ProcessDone()).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        close();
    }

    /** Closes the connection. Without a preceding {@link #finish()} the coordinator counts this process as failed. */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    public static final class Builder {
        private NodeAddress coordinator;
        private JobSecret secret;
        private long pid = ProcessHandle.current().pid();
        private int nativeRank = -1;
        private int logicalRank = -1;
        private Role role = Role.CMP;
        private FailureListener listener;
        private Duration timeout = Duration.ofSeconds(10);

        public Builder coordinator(NodeAddress address) {
            this.coordinator = address;
            return this;
        }

        /** Coordinator from {@value #ENV_COORDINATOR} and secret from {@value JobSecret#ENV}, as fthp-run sets them. */
        public Builder fromEnvironment() {
            String address = System.getenv(ENV_COORDINATOR);
            if (address == null || address.isBlank()) {
                throw new IllegalStateException(ENV_COORDINATOR + " is not set");
            }
            this.coordinator = NodeAddress.parse(address.strip());
            this.secret = JobSecret.fromEnvironment();
            return this;
        }

        public Builder secret(JobSecret secret) {
            this.secret = secret;
            return this;
        }

        /** Defaults to this JVM's pid; tests that run many "processes" in one JVM give each its own. */
        public Builder pid(long pid) {
            this.pid = pid;
            return this;
        }

        public Builder ranks(int nativeRank, int logicalRank, Role role) {
            this.nativeRank = nativeRank;
            this.logicalRank = logicalRank;
            this.role = Objects.requireNonNull(role);
            return this;
        }

        public Builder listener(FailureListener listener) {
            this.listener = listener;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Connects, authenticates and registers; returns once the coordinator has acknowledged. */
        public CoordinatorClient connect() throws InterruptedException, TimeoutException {
            Objects.requireNonNull(coordinator, "coordinator address");
            Objects.requireNonNull(secret, "secret");
            Objects.requireNonNull(listener, "listener");
            if (nativeRank < 0 || logicalRank < 0) {
                throw new IllegalStateException("ranks not set");
            }
            // One thread is plenty for one connection, and it keeps listener calls strictly ordered.
            EventLoopGroup group = new NioEventLoopGroup(1);
            Dispatcher dispatcher = new Dispatcher(listener);
            String identity = "process native " + nativeRank + " pid " + pid;
            try {
                Channel channel = UpstreamConnection.open(group, coordinator.toSocketAddress(), secret,
                                PeerRole.PROCESS, identity,
                                new Message.RegisterProcess(pid, nativeRank, logicalRank, role),
                                dispatcher, () -> { })
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                return new CoordinatorClient(group, channel);
            } catch (ExecutionException e) {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
                throw new IllegalStateException("cannot register with coordinator " + coordinator, e.getCause());
            } catch (TimeoutException | InterruptedException e) {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
                throw e;
            }
        }
    }

    /** Turns coordinator messages into listener calls, dropping stale epochs and repeated aborts. */
    private static final class Dispatcher implements Consumer<Message> {
        private final FailureListener listener;
        private long deliveredEpoch;
        private boolean aborted;

        Dispatcher(FailureListener listener) {
            this.listener = listener;
        }

        @Override
        public void accept(Message message) {
            try {
                switch (message) {
                    case Message.FailureSet s -> {
                        if (s.epoch() > deliveredEpoch) {
                            deliveredEpoch = s.epoch();
                            listener.onFailureSet(s.epoch(), s.failed());
                        }
                    }
                    case Message.JobAbort a -> {
                        if (!aborted) {
                            aborted = true;
                            listener.onJobAbort(a.reason(), a.lostRank());
                        }
                    }
                    default -> LOG.log(Level.WARNING, "coordinator client: ignoring unexpected {0}", message.type());
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "coordinator client: failure listener threw", e);
            }
        }
    }
}

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
import org.fthp.coordinator.checkpoint.PieceBytes;
import org.fthp.coordinator.checkpoint.PieceDirectory;
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
    /**
     * The epoch a restarted job resumes from (-1: none), set by fthp-run in every process's environment: a process
     * that has it starts fetching its rank's piece as soon as it has connected, in parallel with the rest of its
     * start-up, so {@link #openPiece} usually finds it already there.
     */
    public static final String ENV_RESTART_EPOCH = "FTHP_CHECKPOINT_EPOCH";

    /** {@code host:port} of the local node coordinator, set by fthp-run. */
    public static final String ENV_COORDINATOR = "FTHP_COORDINATOR";

    private final EventLoopGroup group;
    private final Channel channel;
    private final PieceExchange pieces;

    private CoordinatorClient(EventLoopGroup group, Channel channel, PieceExchange pieces) {
        this.group = group;
        this.channel = channel;
        this.pieces = pieces;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@value #ENV_RESTART_EPOCH} as a number; -1 when unset or not one. */
    public static long restartEpochFromEnvironment() {
        try {
            String v = System.getenv(ENV_RESTART_EPOCH);
            return v == null ? -1 : Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** How long an early fetch may take (the same as a recovery's own). */
    private static final Duration PREFETCH_TIMEOUT = Duration.ofSeconds(300);

    /** Whether the connection to the coordinator is still up. */
    public boolean isConnected() {
        return channel.isActive();
    }

    // ---- checkpoints ----

    /**
     * Puts this rank's piece of {@code epoch} (the bytes from {@code piece}'s position to its limit; the buffer is
     * not changed) and blocks until the coordinators hold it: in the memory of this node's coordinator and of a
     * partner node's ({@code HELD_WITH_PARTNER}), or of this node's only when the job has one node
     * ({@code HELD_LOCAL_ONLY}). Putting the same epoch and rank again is harmless.
     *
     * @throws CheckpointTransferException refused (the coordinators' memory bound, a damaged transfer, the partner
     *         unreachable: the message says which), no answer within {@code timeout}, or the connection ended
     */
    public Message.PieceAck.Status putPiece(long epoch, int logicalRank, java.nio.ByteBuffer piece, Duration timeout)
            throws CheckpointTransferException {
        return pieces.put(channel, epoch, logicalRank, piece, timeout);
    }

    /**
     * Writes this rank's piece of {@code epoch}, {@code size} bytes, straight into a file of the host's shared
     * memory ({@code encoder} fills the buffer from index 0 and returns the CRC32C of all of it) and hands the file
     * to the coordinator by name: no copy besides the encoding. Returns once this node's coordinator holds it
     * ({@code HELD_COPYING}: its partner's copy is under way, and the epoch commits only once that copy is held;
     * {@code HELD_LOCAL_ONLY} with one node). A coordinator on another host cannot see the file: then the bytes
     * go over the connection as with {@link #putPiece(long, int, java.nio.ByteBuffer, Duration)}.
     *
     * @throws CheckpointTransferException refused (the message says why), no answer in time, or the connection ended
     */
    public Message.PieceAck.Status putPiece(long epoch, int logicalRank, long size,
                                            java.util.function.ToIntFunction<java.nio.ByteBuffer> encoder,
                                            Duration timeout) throws CheckpointTransferException {
        return pieces.putShared(channel, epoch, logicalRank, size, encoder, timeout);
    }

    /**
     * The piece of {@code logicalRank} at {@code epoch}, its checksum verified, as the coordinator's shared-memory
     * file mapped read-only when this process shares its host (no copy), else received over the connection. The
     * caller {@link PieceBytes#release()}s it once read.
     *
     * @throws CheckpointTransferException as {@link #getPiece}
     */
    public PieceBytes openPiece(long epoch, int logicalRank, Duration timeout) throws CheckpointTransferException {
        return pieces.takeOrGet(channel, epoch, logicalRank, timeout);
    }

    /**
     * Starts fetching the piece of {@code logicalRank} at {@code epoch} in the background (once per piece), so that
     * {@link #openPiece} finds it there: a process rolled back in place asks for it as the rollback is announced.
     */
    public void prefetchPiece(long epoch, int logicalRank) {
        pieces.prefetch(channel, epoch, logicalRank, PREFETCH_TIMEOUT);
    }

    /**
     * The piece of {@code logicalRank} at {@code epoch}, its checksum verified: from this node's coordinator's memory,
     * another coordinator's, or the checkpoint directory.
     *
     * @throws CheckpointTransferException held nowhere (the message says where the coordinator looked), no answer in
     *         time, or the connection ended
     */
    public java.nio.ByteBuffer getPiece(long epoch, int logicalRank, Duration timeout)
            throws CheckpointTransferException {
        return pieces.get(channel, epoch, logicalRank, timeout);
    }

    /**
     * How many times the primary's timer has said a checkpoint is due in this incarnation of the job (0: never). The
     * process side compares it with the count it has acted on, and agrees with the other ranks at a snapshot.
     */
    public long checkpointDueSequence() {
        return pieces.dueSequence();
    }

    /** Tells the primary what writing its piece of {@code epoch} cost this rank (for the Young/Daly interval). */
    public void reportCheckpointCost(long epoch, int logicalRank, long nanos) {
        channel.writeAndFlush(new Message.CheckpointCost(epoch, logicalRank, nanos));
    }

    /** The newest epoch every rank's piece of which is held (-1: none yet); a restart recovers this one. */
    public long lastCommittedEpoch() {
        return pieces.lastCommitted();
    }

    /**
     * Whether the primary last said a replica is due to be restored from a spare: the next checkpoint then waits for
     * its commit, at which the job rolls back in place to it with the spare as the replica.
     */
    public boolean restorationDue() {
        return pieces.restorationDue();
    }

    /** Waits until {@code epoch} (or a later one) has committed; false on timeout. */
    public boolean awaitCommitted(long epoch, Duration timeout) throws InterruptedException {
        return pieces.awaitCommitted(epoch, timeout);
    }

    /**
     * This process entered its resilient body ({@code Checkpoint.resilient}) in generation {@code generation} of the
     * job: from here on a lost rank may be rolled back in place instead of relaunched.
     */
    public void bodyEntered(int nativeRank, int generation) {
        channel.writeAndFlush(new Message.ProcessState(nativeRank, Message.ProcessState.State.IN_BODY, generation));
    }

    /**
     * The twins of logical rank {@code logicalRank} differ, as this process found in generation {@code generation}:
     * the primary rolls the job back in place, or ends it with {@code reason}.
     */
    public void sdcDetected(int nativeRank, int logicalRank, int generation, String reason) {
        channel.writeAndFlush(new Message.SdcDetected(nativeRank, logicalRank, generation, reason));
    }

    /** This process's resilient body returned: it cannot be rolled back any more. */
    public void bodyLeft(int nativeRank) {
        channel.writeAndFlush(new Message.ProcessState(nativeRank, Message.ProcessState.State.BODY_LEFT, 0));
    }

    /**
     * This copy's program ends the job with {@code exitCode} (non-zero) for {@code reason}: sent and flushed (at most
     * {@code timeout}); the coordinators answer with the job's abort, which the listener hears. The disconnect that
     * follows is not a failure.
     */
    public void programEnded(int logicalRank, int exitCode, String reason, Duration timeout) {
        if (channel.isActive()) {
            channel.writeAndFlush(new Message.ProgramEnded(logicalRank, exitCode, reason))
                    .awaitUninterruptibly(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
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
        pieces.close();
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
        /** As the coordinator's AUTH deadline: the handshake of a JVM just started on a loaded machine is slow. */
        private Duration timeout = Duration.ofSeconds(30);
        private java.nio.file.Path pieceDirectory = PieceDirectory.hostDefault();
        private long prefetchEpoch = -1;

        /** Fetch this rank's piece of {@code epoch} as soon as connected (see {@link #ENV_RESTART_EPOCH}). */
        public Builder prefetch(long epoch) {
            this.prefetchEpoch = epoch;
            return this;
        }

        /** Where this process writes its pieces for its coordinator (default: the host's shared memory). */
        public Builder pieceDirectory(java.nio.file.Path dir) {
            this.pieceDirectory = Objects.requireNonNull(dir);
            return this;
        }

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
            this.prefetchEpoch = restartEpochFromEnvironment();
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
            // a daemon thread: a program that ends without MPI_Finalize must not be kept alive by this connection
            EventLoopGroup group = new NioEventLoopGroup(1,
                    new io.netty.util.concurrent.DefaultThreadFactory("fthp-coordinator-client", true));
            PieceExchange pieces = new PieceExchange(new PieceDirectory(pieceDirectory, coordinator.port()));
            Dispatcher dispatcher = new Dispatcher(listener, pieces);
            String identity = "process native " + nativeRank + " pid " + pid;
            try {
                Channel channel = UpstreamConnection.open(group, coordinator.toSocketAddress(), secret,
                                PeerRole.PROCESS, identity,
                                new Message.RegisterProcess(pid, nativeRank, logicalRank, role),
                                dispatcher, pieces::disconnected)
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                CoordinatorClient client = new CoordinatorClient(group, channel, pieces);
                if (prefetchEpoch >= 0 && logicalRank >= 0) {
                    pieces.prefetch(channel, prefetchEpoch, logicalRank, PREFETCH_TIMEOUT);
                }
                return client;
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
        private final PieceExchange pieces;
        private long deliveredEpoch;
        private boolean aborted;

        Dispatcher(FailureListener listener, PieceExchange pieces) {
            this.listener = listener;
            this.pieces = pieces;
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
                            if (a.programEnded()) {
                                listener.onProgramEnded(a.reason(), a.lostRank(), a.exitCode());
                            } else {
                                listener.onJobAbort(a.reason(), a.lostRank());
                            }
                        }
                    }
                    case Message.SparesRelease r -> listener.onSparesReleased();
                    case Message.SpareWarm w -> listener.onSpareWarm(w.pieceBytes());
                    case Message.Rollback r -> listener.onRollback(r);
                    default -> {
                        if (!pieces.accept(message)) {
                            LOG.log(Level.WARNING, "coordinator client: ignoring unexpected {0}", message.type());
                        }
                    }
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "coordinator client: failure listener threw", e);
            }
        }
    }
}

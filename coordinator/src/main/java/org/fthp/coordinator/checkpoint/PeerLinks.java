package org.fthp.coordinator.checkpoint;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;
import org.fthp.coordinator.wire.PeerRole;
import org.fthp.coordinator.wire.UpstreamConnection;

/**
 * This node's data links to other node coordinators, opened on first use: partner copies and fetches of pieces go
 * straight from node to node (bulk data has no business passing through group leaders). Calls block, so they run on
 * the checkpoint service's transfer thread, never on an I/O thread; one transfer per link at a time.
 */
final class PeerLinks implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(PeerLinks.class.getName());
    private static final Duration CONNECT = Duration.ofSeconds(5);

    private final int nodeId;
    private final EventLoopGroup io;
    private final JobSecret secret;
    private final Supplier<List<NodeAddress>> addresses;
    private final Map<Integer, Link> links = new HashMap<>();
    private final ChunkAssembler.Allocator allocator;

    PeerLinks(int nodeId, EventLoopGroup io, JobSecret secret, Supplier<List<NodeAddress>> addresses,
              ChunkAssembler.Allocator allocator) {
        this.nodeId = nodeId;
        this.allocator = allocator;
        this.io = io;
        this.secret = secret;
        this.addresses = addresses;
    }

    /** One link: answers to what this node asked, matched by epoch and rank. */
    private static final class Link {
        final ChunkAssembler incoming;
        final Map<String, CompletableFuture<Message.PieceAck>> acks = new ConcurrentHashMap<>();
        final Map<String, CompletableFuture<Optional<ChunkAssembler.Piece>>> fetches = new ConcurrentHashMap<>();
        volatile Channel channel;

        Link(ChunkAssembler.Allocator allocator) {
            this.incoming = new ChunkAssembler(allocator);
        }

        /** On the link's I/O thread. */
        void inbound(Message m) {
            switch (m) {
                case Message.PieceAck a -> complete(acks.remove(key(a.epoch(), a.rank())), a);
                case Message.PieceMissing miss ->
                        complete(fetches.remove(key(miss.epoch(), miss.rank())), Optional.empty());
                case Message.PieceData d -> {
                    try {
                        incoming.accept(d.chunk()).ifPresent(piece -> {
                            CompletableFuture<Optional<ChunkAssembler.Piece>> f =
                                    fetches.remove(key(piece.epoch(), piece.rank()));
                            if (f == null || !f.complete(Optional.of(piece))) {
                                piece.bytes().release(); // nobody waits for it any more
                            }
                        });
                    } catch (ChunkAssembler.BrokenPieceException e) {
                        CompletableFuture<Optional<ChunkAssembler.Piece>> f =
                                fetches.remove(key(d.chunk().epoch(), d.chunk().rank()));
                        if (f != null) {
                            f.completeExceptionally(e);
                        }
                    }
                }
                default -> LOG.log(Level.WARNING, "checkpoint peer link: unexpected {0}", m.type());
            }
        }

        void closed() {
            IOException gone = new IOException("the link to the other coordinator closed");
            acks.values().forEach(f -> f.completeExceptionally(gone));
            fetches.values().forEach(f -> f.completeExceptionally(gone));
            acks.clear();
            fetches.clear();
            incoming.clear();
        }

        private static <T> void complete(CompletableFuture<T> f, T value) {
            if (f != null) {
                f.complete(value);
            }
        }
    }

    static String key(long epoch, int rank) {
        return epoch + "/" + rank;
    }

    /**
     * Sends a piece to {@code node} for it to hold; returns its answer. Stops sending once {@code abandoned} says
     * nobody will use the piece (a rollback in place abandoned its epoch), or the node has answered already (a
     * refusal); the receiver forgets what it got of it.
     *
     * @throws IOException abandoned before the node answered, the link lost, or no answer in time
     */
    Message.PieceAck copy(int node, PieceMemory.Held piece, Duration timeout, BooleanSupplier abandoned)
            throws IOException {
        Link link = link(node);
        CompletableFuture<Message.PieceAck> ack = new CompletableFuture<>();
        String key = key(piece.epoch(), piece.rank());
        link.acks.put(key, ack);
        ChunkSender.send(link.channel, piece.epoch(), piece.rank(), piece.crc32c(), piece.bytes().view(),
                Message.PiecePut::new, timeout, () -> ack.isDone() || abandoned.getAsBoolean());
        if (!ack.isDone() && abandoned.getAsBoolean()) {
            link.acks.remove(key, ack);
            throw new IOException("epoch " + piece.epoch() + " was abandoned by a rollback in place");
        }
        return await(ack, timeout, "node " + node + " to hold epoch " + piece.epoch() + " rank " + piece.rank());
    }

    /** Asks {@code node} for a piece it holds in memory; empty if it has none. */
    Optional<ChunkAssembler.Piece> fetch(int node, long epoch, int rank, Duration timeout) throws IOException {
        Link link = link(node);
        CompletableFuture<Optional<ChunkAssembler.Piece>> got = new CompletableFuture<>();
        link.fetches.put(key(epoch, rank), got);
        link.channel.writeAndFlush(new Message.PieceGet(epoch, rank));
        return await(got, timeout, "node " + node + " to send epoch " + epoch + " rank " + rank);
    }

    private Link link(int node) throws IOException {
        Link link = links.computeIfAbsent(node, n -> new Link(allocator));
        if (link.channel != null && link.channel.isActive()) {
            return link;
        }
        List<NodeAddress> all = addresses.get();
        if (node >= all.size()) {
            throw new IOException("no address known for node " + node);
        }
        try {
            link.channel = UpstreamConnection.open(io, all.get(node).toSocketAddress(), secret, PeerRole.COORDINATOR,
                    "node " + nodeId + " data link", new Message.RegisterPeer(nodeId), link::inbound, link::closed)
                    .get(CONNECT.toMillis(), TimeUnit.MILLISECONDS);
            return link;
        } catch (ExecutionException e) {
            throw new IOException("cannot reach node " + node + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("node " + node + " did not answer within " + CONNECT.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to node " + node);
        }
    }

    private static <T> T await(CompletableFuture<T> f, Duration timeout, String what) throws IOException {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IOException("waiting for " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("no answer from " + what + " within " + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + what);
        }
    }

    @Override
    public void close() {
        for (Link l : links.values()) {
            if (l.channel != null) {
                l.channel.close();
            }
        }
    }
}

package org.fthp.coordinator.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import org.fthp.checkpoint.store.CheckpointStore;
import org.fthp.checkpoint.store.Manifest;
import org.fthp.checkpoint.store.PieceEntry;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * One node coordinator's share of checkpointing.
 *
 * <ul>
 * <li><b>Put.</b> A process sends its rank's piece in chunks; once whole and verified, this node holds it and sends
 *     a copy to its partner node ({@link #partnerOf}: the next node id, wrapping), and only when the partner holds
 *     it too does the process get HELD_WITH_PARTNER (with one node, HELD_LOCAL_ONLY). The primary is told
 *     (PIECE_HELD), and commits the epoch once every rank's piece is held. A second put of the same epoch and rank
 *     (a promoted replica, a retry) is answered the same way and changes nothing; a different checksum is logged:
 *     the twins diverged.
 * <li><b>Get.</b> From this node's memory, else from any other node's memory, else from the committed epoch on
 *     disk; PIECE_MISSING says where it looked.
 * <li><b>Commit.</b> Every node drops epochs older than the committed one, except the epoch the job last restarted
 *     from: a commit needs only the computational copies' pieces, and a replica (or any copy slow to start) of the
 *     relaunched job may still have to fetch its piece of that epoch; it stays until the next relaunch, or until its
 *     room is needed for a newer piece. Every {@code diskEvery}-th commit, each
 *     node writes the pieces its own processes put to the checkpoint directory in the background and tells the
 *     primary, which writes the manifest once every rank's piece is on disk.
 * <li><b>Timer</b> (primary): CHECKPOINT_DUE with an increasing sequence number, the interval after the last commit
 *     (or the first registration of an incarnation), from the {@link IntervalPolicy}; the interval in force is
 *     logged when it changes.
 * </ul>
 *
 * <p>Threads: messages arrive on the node's I/O thread; anything that touches every byte of a piece (checksums,
 * copies, replies, fetches) runs on one transfer thread, disk writes on one disk thread. The memory is bounded
 * ({@link PieceMemory}) and every refusal is answered.
 */
public final class CheckpointService implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(CheckpointService.class.getName());
    /**
     * Benchmarks only (bench/checkpoint.sh): at a new incarnation every coordinator forgets the pieces it holds, as
     * if it had lost its memory, so the restart reads them from the checkpoint directory (page cache dropped
     * first): what a restart from disk costs.
     */
    static final boolean PIECES_FROM_DISK = System.getenv("FTHP_BENCH_PIECES_FROM_DISK") != null;

    /** Why a piece of an epoch a rollback in place abandoned is neither copied nor held. */
    private static final String ABANDONED = "its epoch was abandoned by a rollback in place";

    /** How long a partner copy or a fetch may take before the put or get fails (a 1 GiB piece needs a few s). */
    static final Duration TRANSFER_TIMEOUT = Duration.ofSeconds(120);

    /** What the service needs from its node: the coordinator tree. */
    public interface Tree {
        /** On the I/O thread: to every child coordinator and every live local process. */
        void sendDown(Message message);

        /** To the parent (the primary handles it itself). Any thread. */
        void toPrimary(Message message);

        /** Runs on the node's I/O thread. */
        void onIoThread(Runnable task);

        /**
         * The primary, on the I/O thread: {@code epoch} commits, before any process hears it (a restoration of a
         * replica from a spare rolls the job back to it, and the processes that wait for this commit must hear
         * the rollback first).
         */
        default void committing(long epoch) {
        }

        /** Any thread: this node now holds a piece of {@code pieceBytes} (its spares ready that much heap). */
        default void pieceHeld(long pieceBytes) {
        }
    }

    private final int nodeId;
    private final int nodeCount;
    private final CheckpointConfig config;
    private final PieceMemory memory;
    private final Optional<CheckpointStore> store;
    private final PeerLinks peers;
    private final Tree tree;
    private final EventLoopGroup io;
    private final Supplier<List<NodeAddress>> addresses;
    private volatile PieceDirectory pieceDirectory;
    /** For this node's processes: may wait on other nodes (partner copies, fetches). */
    private final ExecutorService transfers;
    /**
     * For other nodes (holding their copies, answering their fetches): never waits on another node, so two nodes
     * copying to each other at once cannot wait on each other.
     */
    private final ExecutorService peerTransfers;
    private final ExecutorService disk;
    private final Supplier<JobShape> shape;
    /** Primary only. */
    private final CommitTracker tracker;
    private volatile JobEvents events = JobEvents.NONE;
    /**
     * The epochs the last rollback in place abandoned: above the one it resumes from, below the first of its new
     * numbering. None of them can be used any more, so their partner copies are not made (the copy of a checkpoint
     * the failure interrupted would otherwise take the cores the rollback needs).
     */
    private volatile Abandoned abandoned = Abandoned.NONE;

    /** Epochs strictly between {@code above} and {@code below}. */
    private record Abandoned(long above, long below) {
        static final Abandoned NONE = new Abandoned(Long.MAX_VALUE, Long.MIN_VALUE);

        boolean holds(long epoch) {
            return epoch > above && epoch < below;
        }
    }
    /**
     * The highest epoch any piece, copy, cost or commit this node handled was for (any thread): a relaunched job
     * numbers its checkpoints above every node's, so nothing an earlier incarnation left in flight is taken for
     * one of its pieces.
     */
    private final java.util.concurrent.atomic.AtomicLong highestEpochSeen = new java.util.concurrent.atomic.AtomicLong(-1);

    // I/O-thread state
    private long lastCommitted = -1;
    private int commitsSeen;
    private long dueSequence;
    private ScheduledFuture<?> timer;
    private boolean timerRunning;
    private String intervalInForce;
    private final long jobStartNanos = System.nanoTime();
    private int failuresSeen;
    /** Primary: the last commit, reported once its costs are in (or at the next commit). */
    private CommitTracker.Commit unreported;

    public CheckpointService(int nodeId, int nodeCount, boolean primary, CheckpointConfig config, Tree tree,
                             EventLoopGroup io, JobSecret secret, Supplier<List<NodeAddress>> addresses,
                             Supplier<JobShape> shape) throws IOException {
        this.nodeId = nodeId;
        this.nodeCount = nodeCount;
        this.config = config;
        this.memory = new PieceMemory(config.memoryLimitBytes());
        this.store = config.directory().isPresent()
                ? Optional.of(CheckpointStore.open(config.directory().get(), config.job())) : Optional.empty();
        this.tree = tree;
        this.io = io;
        this.addresses = addresses;
        this.peers = new PeerLinks(nodeId, io, secret, addresses, this::allocate);
        this.shape = shape;
        this.tracker = primary ? new CommitTracker(shape.get().logicalRanks()) : null;
        this.transfers = Executors.newSingleThreadExecutor(daemon("fthp-checkpoint-transfer-" + nodeId));
        this.peerTransfers = Executors.newSingleThreadExecutor(daemon("fthp-checkpoint-peer-" + nodeId));
        this.disk = Executors.newSingleThreadExecutor(daemon("fthp-checkpoint-disk-" + nodeId));
    }

    public void setJobEvents(JobEvents events) {
        this.events = events == null ? JobEvents.NONE : events;
    }

    /** The partner that holds a copy of what this node's processes put: the next node, wrapping; none when alone. */
    public static OptionalLong partnerOf(int node, int nodeCount) {
        return nodeCount < 2 ? OptionalLong.empty() : OptionalLong.of((node + 1) % nodeCount);
    }

    // ---- from processes and peers (I/O thread) ----

    /**
     * A chunk of a piece from a local process ({@code fromProcess}) or from a node for which this is the partner.
     */
    public void put(Channel from, ChunkAssembler inbox, Message.PieceChunk chunk, boolean fromProcess) {
        saw(chunk.epoch());
        if (inbox.skips(chunk)) {
            return;
        }
        if (!fromProcess) {
            if (abandoned.holds(chunk.epoch())) {
                // a partner copy nobody will use: the refusal stops its sender, which may not have heard yet
                memory.release(inbox.abandon(chunk));
                from.writeAndFlush(refused(chunk.epoch(), chunk.rank(), ABANDONED));
                return;
            }
            // and what the senders that had heard first stopped sending midway
            memory.release(inbox.dropIf(abandoned::holds));
        }
        memory.release(inbox.restartIfInProgress(chunk));
        if (inbox.starts(chunk) && !reserve(chunk.pieceBytes())) {
            String why = noRoom(chunk.epoch(), chunk.rank(), chunk.pieceBytes());
            LOG.log(Level.WARNING, "checkpoint: {0}", why);
            inbox.refuse(chunk);
            from.writeAndFlush(refused(chunk.epoch(), chunk.rank(), why));
            return;
        }
        Optional<ChunkAssembler.Piece> whole;
        try {
            whole = inbox.accept(chunk, this::allocate);
        } catch (ChunkAssembler.BrokenPieceException e) {
            memory.release(chunk.pieceBytes());
            from.writeAndFlush(refused(chunk.epoch(), chunk.rank(), e.getMessage()));
            return;
        }
        whole.ifPresent(piece -> executorFor(fromProcess).execute(() -> hold(from, piece, fromProcess)));
    }

    /**
     * A local process's piece in a shared-memory file: taken over by name (and given back by name once dropped),
     * answered at once (HELD_COPYING) so the process goes on, then copied to the partner node; the primary hears
     * of it once the partner holds it too.
     */
    public void putShared(Channel from, Message.PieceShared put) {
        saw(put.epoch());
        transfers.execute(() -> takeShared(from, put));
    }

    /**
     * Room for a piece; the restart's epoch, kept for copies that have not recovered yet, gives way if a newer epoch
     * has committed and there is no room otherwise (logged: such a copy would then find its piece only on disk).
     */
    private boolean reserve(long bytes) {
        if (memory.reserve(bytes)) {
            return true;
        }
        long yielded = memory.yieldRestartEpoch();
        if (yielded < 0) {
            return false;
        }
        LOG.log(Level.WARNING, "checkpoint: node {0} drops the restart''s epoch {1} to make room for newer pieces:"
                + " a copy that has not recovered yet will not find it in memory", new Object[] {nodeId, yielded});
        return memory.reserve(bytes);
    }

    private String noRoom(long epoch, int rank, long bytes) {
        return String.format("node %d cannot hold the piece of epoch %d rank %d: %d bytes, and it holds"
                        + " %d of its %d bytes (--checkpoint-memory)", nodeId, epoch, rank, bytes,
                memory.heldBytes(), memory.limitBytes());
    }

    /** A connection with pieces half received went away: give their room back. */
    public void connectionClosed(ChunkAssembler inbox) {
        memory.release(inbox.pendingBytes());
        inbox.clear();
    }

    public void get(Channel from, Message.PieceGet get, boolean fromProcess) {
        executorFor(fromProcess).execute(() -> serve(from, get.epoch(), get.rank(), fromProcess, false));
    }

    /**
     * A local process's get that may be answered with a shared-memory file, if the process shares this host. A piece
     * this node holds in such a file is named at once, on this thread: the answer touches none of its bytes, and
     * queued behind the transfer thread it would wait for the partner copy of a newer piece (a rollback's processes
     * fetch while the checkpoint the failure interrupted is still being copied).
     */
    public void getShared(Channel from, Message.PieceGetShared get) {
        Optional<PieceMemory.Held> found = memory.acquire(get.epoch(), get.rank());
        if (found.isPresent()) {
            PieceMemory.Held held = found.get();
            try {
                if (held.bytes().file().isPresent() && seesMarker(get.marker())) {
                    from.writeAndFlush(new Message.PieceShared(get.epoch(), get.rank(), held.crc32c(),
                            held.bytes().size(), held.bytes().file().get().toString()));
                    return;
                }
            } finally {
                held.bytes().release();
            }
        }
        transfers.execute(() -> serve(from, get.epoch(), get.rank(), true, seesMarker(get.marker())));
    }

    private boolean seesMarker(String marker) {
        try {
            Path path = Path.of(marker);
            return pieces().isMarker(path) && Files.exists(path);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private ExecutorService executorFor(boolean fromProcess) {
        return fromProcess ? transfers : peerTransfers;
    }

    /** A rank's cost of writing its piece: to the primary. */
    public void cost(Message.CheckpointCost cost) {
        saw(cost.epoch());
        tree.toPrimary(cost);
    }

    /** This node's piece files (created on first use: the node's port is known by then). */
    PieceDirectory pieces() {
        PieceDirectory d = pieceDirectory;
        if (d == null) {
            synchronized (this) {
                d = pieceDirectory;
                if (d == null) {
                    d = new PieceDirectory(config.pieceDirectory(), addresses.get().get(nodeId).port());
                    d.sweep(false);
                    pieceDirectory = d;
                }
            }
        }
        return d;
    }

    /** Room for a piece this node is about to hold: a new file in its piece directory. */
    private PieceBytes allocate(long epoch, int rank, long size) throws IOException {
        return PieceBytes.create(pieces().held(epoch, rank), size, true);
    }

    // ---- transfer thread ----

    private void takeShared(Channel from, Message.PieceShared put) {
        Path handed;
        try {
            handed = Path.of(put.path());
        } catch (RuntimeException e) {
            from.writeAndFlush(refused(put.epoch(), put.rank(), "not a path: " + put.path()));
            return;
        }
        if (!pieces().isHandOff(handed) || !Files.exists(handed)) {
            // another host, or another directory: the process sends the bytes instead
            from.writeAndFlush(new Message.PieceAck(put.epoch(), put.rank(), Message.PieceAck.Status.NOT_SHARED,
                    clip("node " + nodeId + " cannot see " + put.path() + " in " + pieces().directory())));
            return;
        }
        if (!reserve(put.pieceBytes())) {
            String why = noRoom(put.epoch(), put.rank(), put.pieceBytes());
            LOG.log(Level.WARNING, "checkpoint: {0}", why);
            from.writeAndFlush(refused(put.epoch(), put.rank(), why));
            return;
        }
        PieceBytes bytes;
        try {
            // kept under the process's name: when dropped it is given back, for the process to write into again
            bytes = PieceBytes.open(handed, true).giveBackAs(pieces().freeNameOf(handed),
                    PieceDirectory.ownerOf(handed));
            if (bytes.size() != put.pieceBytes()) {
                bytes.release();
                throw new IOException("the file has " + bytes.size() + " bytes, the put says " + put.pieceBytes());
            }
        } catch (IOException | RuntimeException e) {
            memory.release(put.pieceBytes());
            from.writeAndFlush(refused(put.epoch(), put.rank(), "node " + nodeId + " cannot take "
                    + put.path() + ": " + e.getMessage()));
            return;
        }
        // no checksum pass here: the bytes never left the host's memory; the partner and every restore check them
        PieceMemory.Held held = new PieceMemory.Held(put.epoch(), put.rank(), bytes, put.crc32c(), true);
        PieceMemory.Stored stored = storeOrKeepFirst(held);
        OptionalLong partner = partnerOf(nodeId, nodeCount);
        if (partner.isEmpty()) {
            tree.toPrimary(new Message.PieceHeld(put.epoch(), put.rank(), put.pieceBytes(), put.crc32c()));
            from.writeAndFlush(new Message.PieceAck(put.epoch(), put.rank(), Message.PieceAck.Status.HELD_LOCAL_ONLY,
                    "held by node " + nodeId + " only: the job has one node"));
            return;
        }
        from.writeAndFlush(new Message.PieceAck(put.epoch(), put.rank(), Message.PieceAck.Status.HELD_COPYING,
                "held by node " + nodeId + ", copying to node " + partner.getAsLong()));
        if (abandoned.holds(put.epoch())) {
            // the process has its answer; the copy would only take the cores the rollback needs
            if (stored == PieceMemory.Stored.NEW) {
                memory.remove(put.epoch(), put.rank());
            }
            return;
        }
        copyToPartner(put.epoch(), put.rank(), stored, (int) partner.getAsLong()).ifPresent(why ->
                LOG.log(abandoned.holds(put.epoch()) ? Level.FINE : Level.WARNING,
                        "checkpoint: node {0}, epoch {1} rank {2}: {3} (the epoch will not commit)",
                        new Object[] {nodeId, put.epoch(), put.rank(), why}));
    }

    /** Stores a piece; a second one for the same epoch and rank is logged when it differs, and its bytes go. */
    private PieceMemory.Stored storeOrKeepFirst(PieceMemory.Held held) {
        PieceMemory.Stored stored = memory.store(held);
        if (stored != PieceMemory.Stored.NEW) {
            held.bytes().release();
        } else {
            tree.pieceHeld(held.bytes().size());
        }
        if (stored == PieceMemory.Stored.DIVERGED) {
            LOG.log(Level.WARNING, "checkpoint: node {0} got a second piece for epoch {1} rank {2} with another"
                    + " checksum: the twins diverged; keeping the first", new Object[] {nodeId, held.epoch(),
                    held.rank()});
        }
        return stored;
    }

    /**
     * Copies the held piece to the partner and, once it holds it, tells the primary. Returns why not, if not (then a
     * piece this put brought is dropped: its epoch cannot commit with it).
     */
    private Optional<String> copyToPartner(long epoch, int rank, PieceMemory.Stored stored, int partner) {
        Optional<PieceMemory.Held> kept = memory.acquire(epoch, rank);
        if (kept.isEmpty()) {
            return Optional.of("the piece was dropped before its copy to node " + partner);
        }
        try {
            Message.PieceAck answer = peers.copy(partner, kept.get(), TRANSFER_TIMEOUT, () -> abandoned.holds(epoch));
            if (!answer.status().held()) {
                throw new IOException(answer.detail());
            }
        } catch (IOException e) {
            if (stored == PieceMemory.Stored.NEW) {
                memory.remove(epoch, rank);
            }
            return Optional.of("partner node " + partner + " could not hold a copy: " + e.getMessage());
        } finally {
            kept.get().bytes().release();
        }
        tree.toPrimary(new Message.PieceHeld(epoch, rank, kept.get().bytes().size(), kept.get().crc32c()));
        return Optional.empty();
    }

    private void hold(Channel from, ChunkAssembler.Piece piece, boolean fromProcess) {
        if (!fromProcess && abandoned.holds(piece.epoch())) {
            // a partner copy of an epoch nobody will use: no checksum pass, nothing held
            memory.release(piece.bytes().size());
            piece.bytes().release();
            from.writeAndFlush(refused(piece.epoch(), piece.rank(), ABANDONED));
            return;
        }
        try {
            ChunkAssembler.verify(piece);
        } catch (ChunkAssembler.BrokenPieceException e) {
            memory.release(piece.bytes().size());
            piece.bytes().release();
            from.writeAndFlush(refused(piece.epoch(), piece.rank(), e.getMessage()));
            return;
        }
        PieceMemory.Held held = new PieceMemory.Held(piece.epoch(), piece.rank(), piece.bytes(), piece.crc32c(),
                fromProcess);
        PieceMemory.Stored stored = storeOrKeepFirst(held);
        if (!fromProcess) {
            from.writeAndFlush(new Message.PieceAck(piece.epoch(), piece.rank(),
                    Message.PieceAck.Status.HELD_LOCAL_ONLY, "held by node " + nodeId));
            return;
        }
        // a process that sent its bytes over the socket hears once both copies are held
        OptionalLong partner = partnerOf(nodeId, nodeCount);
        if (partner.isEmpty()) {
            tree.toPrimary(new Message.PieceHeld(piece.epoch(), piece.rank(), piece.bytes().size(), piece.crc32c()));
            from.writeAndFlush(new Message.PieceAck(piece.epoch(), piece.rank(),
                    Message.PieceAck.Status.HELD_LOCAL_ONLY, "held by node " + nodeId + " only: the job has one node"));
            return;
        }
        int p = (int) partner.getAsLong();
        Optional<String> failed = copyToPartner(piece.epoch(), piece.rank(), stored, p);
        if (failed.isPresent()) {
            LOG.log(Level.WARNING, "checkpoint: node {0}, epoch {1} rank {2}: {3}",
                    new Object[] {nodeId, piece.epoch(), piece.rank(), failed.get()});
            from.writeAndFlush(refused(piece.epoch(), piece.rank(), failed.get()));
            return;
        }
        from.writeAndFlush(new Message.PieceAck(piece.epoch(), piece.rank(), Message.PieceAck.Status.HELD_WITH_PARTNER,
                "held by nodes " + nodeId + " and " + p));
    }

    /**
     * A get: from this node's memory, else another node's (kept here, within the bound, for the other copies of the
     * rank), else the committed epoch on disk. A process that shares this host gets the file's name, any other
     * requester the bytes in chunks.
     */
    private void serve(Channel to, long epoch, int rank, boolean fromProcess, boolean shared) {
        List<String> looked = new ArrayList<>();
        Optional<PieceMemory.Held> found = memory.acquire(epoch, rank);
        if (found.isEmpty()) {
            looked.add("node " + nodeId + "'s memory");
        }
        // a peer answers from its own memory only, so a get never travels in circles
        for (int i = 1; found.isEmpty() && fromProcess && i < nodeCount; i++) {
            int node = (nodeId - i + nodeCount) % nodeCount; // whose partner this node is, first
            try {
                Optional<ChunkAssembler.Piece> fetched = peers.fetch(node, epoch, rank, TRANSFER_TIMEOUT);
                if (fetched.isPresent()) {
                    try {
                        ChunkAssembler.verify(fetched.get());
                    } catch (ChunkAssembler.BrokenPieceException e) {
                        fetched.get().bytes().release();
                        throw e;
                    }
                    found = Optional.of(keepFetched(fetched.get().epoch(), fetched.get().rank(),
                            fetched.get().bytes(), fetched.get().crc32c()));
                } else {
                    looked.add("node " + node + "'s memory");
                }
            } catch (IOException | ChunkAssembler.BrokenPieceException e) {
                looked.add("node " + node + " (" + e.getMessage() + ")");
            }
        }
        if (found.isEmpty() && fromProcess && store.isPresent()) {
            try {
                found = Optional.of(readFromDisk(epoch, rank));
            } catch (IOException | RuntimeException e) {
                looked.add("the checkpoint directory (" + e.getMessage() + ")");
            }
        }
        if (found.isEmpty()) {
            to.writeAndFlush(new Message.PieceMissing(epoch, rank,
                    clip("epoch " + epoch + " rank " + rank + " is in none of: " + String.join(", ", looked))));
            return;
        }
        PieceMemory.Held held = found.get();
        try {
            if (shared && held.bytes().file().isPresent()) {
                to.writeAndFlush(new Message.PieceShared(epoch, rank, held.crc32c(), held.bytes().size(),
                        held.bytes().file().get().toString()));
                return;
            }
            ChunkSender.send(to, epoch, rank, held.crc32c(), held.bytes().view(), Message.PieceData::new,
                    TRANSFER_TIMEOUT);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "checkpoint: node {0} could not send epoch {1} rank {2}: {3}",
                    new Object[] {nodeId, epoch, rank, e.getMessage()});
        } finally {
            held.bytes().release();
        }
    }

    /**
     * A piece fetched for a get, one reference handed back: held as a (non-local) copy when the bound allows, so the
     * next copy of the rank finds it here and it stays until the next commit; else only for this answer.
     */
    private PieceMemory.Held keepFetched(long epoch, int rank, PieceBytes bytes, int crc) {
        PieceMemory.Held held = new PieceMemory.Held(epoch, rank, bytes, crc, false);
        if (reserve(bytes.size())) {
            if (memory.store(held) == PieceMemory.Stored.NEW) {
                bytes.retain(); // one for the memory, one for the caller
                return held;
            }
            Optional<PieceMemory.Held> first = memory.acquire(epoch, rank);
            if (first.isPresent()) {
                bytes.release();
                return first.get();
            }
        }
        return held;
    }

    /** Benchmarks only: GNU dd's {@code iflag=nocache count=0} drops a file's pages from the page cache. */
    private static void dropPageCache(Path file) {
        try {
            new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0", "status=none")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                    .waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "checkpoint: cannot drop the page cache of {0}: {1}",
                    new Object[] {file, e.getMessage()});
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Benchmarks only: waits until {@code epoch} is committed on disk or {@code deadline} passes, woken by the
     * manifest's arrival in the epoch's directory (the primary's rename is the commit), not by polling.
     */
    private static void awaitOnDisk(CheckpointStore disk, long epoch, int rank, long deadline) throws IOException {
        Path epochDir = disk.piecePath(epoch, rank).getParent();
        try (java.nio.file.WatchService arrivals = epochDir.getFileSystem().newWatchService()) {
            epochDir.register(arrivals, java.nio.file.StandardWatchEventKinds.ENTRY_CREATE);
            while (!disk.committedEpochs().contains(epoch)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;   // the read that follows says what is missing
                }
                java.nio.file.WatchKey key = arrivals.poll(left, TimeUnit.NANOSECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The committed piece from the checkpoint directory, checked against its manifest, into a file of this node. */
    private PieceMemory.Held readFromDisk(long epoch, int rank) throws IOException {
        CheckpointStore disk = store.orElseThrow();
        if (PIECES_FROM_DISK) {
            // the epoch committed in memory may still be on its way to disk (written in the background)
            awaitOnDisk(disk, epoch, rank, System.nanoTime() + TRANSFER_TIMEOUT.toNanos());
        }
        PieceEntry entry = disk.entry(epoch, rank);
        if (PIECES_FROM_DISK) {
            dropPageCache(disk.piecePath(epoch, rank));
        }
        PieceBytes bytes = allocate(epoch, rank, entry.bytes());
        try {
            disk.readPieceInto(epoch, entry, bytes.view());
        } catch (IOException | RuntimeException e) {
            bytes.release();
            throw e;
        }
        return keepFetched(epoch, rank, bytes, entry.crc32c());
    }

    // ---- the primary (I/O thread) ----

    /** PIECE_HELD from this node or below. */
    public void pieceHeld(Message.PieceHeld held) {
        saw(held.epoch());
        tracker.held(held.epoch(), held.rank(), held.bytes()).ifPresent(commit -> {
            if (unreported != null) {
                report(unreported, tracker.partialCost(unreported.epoch()));
                unreported = null;
            }
            OptionalLong cost = tracker.costAtCommit(commit.epoch());
            if (cost.isPresent()) {
                report(commit, cost);   // the ranks went on before the commit, and every one has said its cost
            } else {
                unreported = commit;
            }
            LOG.log(Level.FINE, "coordinator primary: checkpoint epoch {0} committed ({1} bytes)",
                    new Object[] {commit.epoch(), commit.bytes()});
            tree.committing(commit.epoch());
            Message.CheckpointCommitted committed = new Message.CheckpointCommitted(commit.epoch());
            tree.sendDown(committed);
            committed(commit.epoch());
            restartTimer();
        });
    }

    /** CHECKPOINT_COST from below. */
    public void costReported(Message.CheckpointCost cost) {
        saw(cost.epoch());
        OptionalLong epochCost = tracker.cost(cost.epoch(), cost.rank(), cost.nanos());
        if (epochCost.isPresent() && unreported != null && unreported.epoch() == cost.epoch()) {
            report(unreported, epochCost);
            unreported = null;
        }
    }

    private void report(CommitTracker.Commit commit, OptionalLong costNanos) {
        events.checkpointCommitted(commit.epoch(), commit.bytes(),
                costNanos.isPresent() ? costNanos.getAsLong() / 1e9 : Double.NaN);
    }

    /** PIECES_ON_DISK from this node or below. */
    public void piecesOnDisk(Message.PiecesOnDisk onDisk) {
        tracker.onDisk(onDisk.epoch(), onDisk.pieces()).ifPresent(manifest -> disk.execute(() -> commitToDisk(manifest)));
    }

    private void commitToDisk(Manifest manifest) {
        try {
            store.orElseThrow().commit(manifest);
            events.checkpointDurable(manifest.epoch(), manifest.totalBytes());
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.SEVERE, "checkpoint: cannot commit epoch " + manifest.epoch() + " to disk", e);
        }
    }

    /** A process registered: the first of an incarnation starts the timer. */
    public void processRegistered() {
        if (tracker != null && !timerRunning) {
            timerRunning = true;
            restartTimer();
        }
    }

    public void failuresSeen(int newlyFailed) {
        failuresSeen += newlyFailed;
    }

    private void restartTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        if (!timerRunning) {
            return;
        }
        IntervalPolicy.Inputs in = new IntervalPolicy.Inputs(shape.get(), tracker.meanCostSeconds(), failuresSeen,
                (System.nanoTime() - jobStartNanos) / 1e9);
        config.interval().decide(in).ifPresent(d -> {
            String said = String.format("%.1f s (%s)", d.seconds(), d.basis());
            if (!said.equals(intervalInForce)) {
                intervalInForce = said;
                LOG.log(Level.FINE, "coordinator primary: checkpoint interval {0}", said);
                events.checkpointInterval(d.seconds(), d.basis());
            }
            timer = io.schedule((Runnable) this::fireDue, (long) (d.seconds() * 1e6), TimeUnit.MICROSECONDS);
        });
    }

    /**
     * The launcher was told to stop (a batch job's time limit is near): a checkpoint is due at every rank's next
     * snapshot, whatever the timer says. The primary only (false elsewhere); runs on the I/O thread.
     */
    public boolean requestNow() {
        if (tracker == null) {
            return false;
        }
        io.execute(this::fireDue);
        return true;
    }

    private void fireDue() {
        dueSequence++;
        tree.sendDown(new Message.CheckpointDue(dueSequence));
        restartTimer();
    }

    // ---- every node (I/O thread) ----

    /**
     * A rollback in place resumes from {@code epoch}: its pieces stay until the next rollback or relaunch (or until
     * their room is needed once a newer epoch committed), whatever commits meanwhile, as a relaunch's do.
     */
    public void rollingBackTo(long epoch, long firstEpoch) {
        memory.keepForRestart(epoch);
        abandoned = new Abandoned(epoch, firstEpoch);
    }

    /** CHECKPOINT_COMMITTED: drop what is older, and maybe write this node's pieces to disk. */
    public void committed(long epoch) {
        saw(epoch);
        if (epoch <= lastCommitted) {
            return;
        }
        lastCommitted = epoch;
        commitsSeen++;
        memory.dropBelow(epoch);
        events.checkpointMemory(nodeId, memory.heldBytes(), memory.peakBytes(), memory.limitBytes());
        if (store.isPresent() && (commitsSeen - 1) % config.diskEvery() == 0) {
            List<PieceMemory.Held> mine = memory.localPieces(epoch);
            if (!mine.isEmpty()) {
                try {
                    disk.execute(() -> writeToDisk(epoch, mine));
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    mine.forEach(h -> h.bytes().release());
                }
            }
        }
    }

    public void due(long sequence) {
        dueSequence = Math.max(dueSequence, sequence);
    }

    private void writeToDisk(long epoch, List<PieceMemory.Held> pieces) {
        List<PieceEntry> written = new ArrayList<>();
        try {
            for (PieceMemory.Held h : pieces) {
                written.add(store.orElseThrow().writePiece(epoch, h.rank(), h.bytes().view(), h.crc32c()));
            }
            tree.toPrimary(new Message.PiecesOnDisk(epoch, written));
        } catch (IOException e) {
            LOG.log(Level.SEVERE, "checkpoint: node " + nodeId + " cannot write epoch " + epoch + " to disk", e);
        } finally {
            pieces.forEach(h -> h.bytes().release());
        }
    }

    /** Brings a newly registered process up to date: the last commit and the due sequence. */
    public void catchUp(Channel process) {
        if (lastCommitted >= 0) {
            process.write(new Message.CheckpointCommitted(lastCommitted));
        }
        if (dueSequence > 0) {
            process.write(new Message.CheckpointDue(dueSequence));
        }
    }

    private void saw(long epoch) {
        highestEpochSeen.accumulateAndGet(epoch, Math::max);
    }

    /** The highest epoch this node has handled anything for (-1: none). */
    public long highestEpochSeen() {
        return highestEpochSeen.get();
    }

    /**
     * The job ended for a relaunch (first of two steps, on every node): the timer stops and, on the primary,
     * nothing commits any more, so the last commit is final. Pieces stay until {@link #settle}: which epoch the
     * restart reads is decided from every node's answer (a node may not have heard the last commit yet).
     */
    public void stopIncarnation() {
        dueSequence = 0;
        timerRunning = false;
        restartTimer();
        if (tracker != null) {
            tracker.stopIncarnation();
        }
    }

    /**
     * Second step: the restart reads {@code committed} (the primary's last commit), and the relaunched job numbers
     * its checkpoints from {@code firstEpoch} on. A commit this node had not heard of is taken now (a late
     * CHECKPOINT_COMMITTED for it is then ignored); pieces of epochs that never committed go; the primary
     * ignores whatever still arrives for those epochs; the timer waits for the first registration. The restart's
     * epoch is kept through the new incarnation's commits ({@link PieceMemory#keepForRestart}).
     */
    public void settle(long committed, long firstEpoch) {
        if (committed > lastCommitted) {
            committed(committed);
        }
        // kept through this incarnation's commits: a copy may fetch it after the others committed a newer epoch
        memory.keepForRestart(committed);
        memory.dropAbove(committed);
        if (PIECES_FROM_DISK && store.isPresent()) {
            memory.clear();
        }
        dueSequence = 0;
        if (tracker != null) {
            tracker.startIncarnation(firstEpoch);
            if (unreported != null) {
                report(unreported, tracker.partialCost(unreported.epoch()));
                unreported = null;
            }
            timerRunning = false;
            restartTimer();
        }
    }

    public long lastCommitted() {
        return lastCommitted;
    }

    public long dueSequence() {
        return dueSequence;
    }

    public PieceMemory memory() {
        return memory;
    }

    private static Message.PieceAck refused(long epoch, int rank, String why) {
        return new Message.PieceAck(epoch, rank, Message.PieceAck.Status.REFUSED, clip(why));
    }

    private static String clip(String s) {
        return s.length() <= 900 ? s : s.substring(0, 900) + "...";
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.cancel(false);
        }
        transfers.shutdownNow();
        peerTransfers.shutdownNow();
        disk.shutdown();
        // the files go first: the launcher may not wait for a disk write in progress, which reads from its
        // mapping and is not disturbed by the name going
        if (pieceDirectory != null) {
            pieceDirectory.sweep(true);
        }
        try {
            // a disk write in progress finishes (its rename is what makes it count); nothing else waits
            disk.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        peers.close();
        memory.clear();
    }
}

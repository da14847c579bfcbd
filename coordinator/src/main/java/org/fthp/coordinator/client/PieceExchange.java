package org.fthp.coordinator.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToIntFunction;
import java.util.zip.CRC32C;

import io.netty.channel.Channel;
import org.fthp.coordinator.checkpoint.ChunkAssembler;
import org.fthp.coordinator.checkpoint.ChunkSender;
import org.fthp.coordinator.checkpoint.PieceBytes;
import org.fthp.coordinator.checkpoint.PieceDirectory;
import org.fthp.coordinator.wire.Message;

/**
 * A process's side of checkpointing with its node coordinator: putting and getting pieces (blocking, with a
 * timeout), and what the coordinators announce (the due sequence, the last committed epoch). Messages arrive on the
 * client's event-loop thread; the blocking calls are made by the process's own threads.
 */
final class PieceExchange {
    private final Map<String, CompletableFuture<Message.PieceAck>> acks = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Got>> gets = new ConcurrentHashMap<>();
    private final ChunkAssembler incoming = new ChunkAssembler();
    private final PieceDirectory directory;
    private final PieceSlots slots;
    private final Map<String, CompletableFuture<PieceBytes>> prefetched = new ConcurrentHashMap<>();
    private volatile long dueSequence;
    private volatile long lastCommitted = -1;
    /** The primary's last word on whether a replica is due to be restored at the next checkpoint. */
    private volatile boolean restorationDue;
    private final Object commitSignal = new Object();

    /** A get's answer: the bytes, and whether their checksum is still to be checked (a shared file's is). */
    private record Got(PieceBytes bytes, int crc32c, boolean checked) {
    }

    PieceExchange(PieceDirectory directory) {
        this.directory = directory;
        this.slots = new PieceSlots(directory);
    }

    /** The process is done: its slots go. */
    void close() {
        slots.close();
        prefetched.values().forEach(f -> f.thenAccept(PieceBytes::release));
        prefetched.clear();
    }

    private static String key(long epoch, int rank) {
        return epoch + "/" + rank;
    }

    Message.PieceAck.Status putShared(Channel channel, long epoch, int rank, long size,
                                      ToIntFunction<ByteBuffer> encoder, Duration timeout)
            throws CheckpointTransferException {
        PieceSlots.Slot slot;
        try {
            slot = slots.take(size);
        } catch (IOException e) {
            throw new CheckpointTransferException("cannot write a piece to " + directory.directory() + ": "
                    + e.getMessage(), e);
        }
        Path file = slot.handOff();
        boolean handedOver = false;
        try {
            int crc = encoder.applyAsInt(slot.bytes().view());
            CompletableFuture<Message.PieceAck> ack = new CompletableFuture<>();
            if (acks.putIfAbsent(key(epoch, rank), ack) != null) {
                throw new IllegalStateException("a put of epoch " + epoch + " rank " + rank + " is already under way");
            }
            Message.PieceAck answer;
            try {
                channel.writeAndFlush(new Message.PieceShared(epoch, rank, crc, size, file.toString()));
                answer = await(ack, timeout, "the coordinator to take epoch " + epoch + " rank " + rank);
            } finally {
                acks.remove(key(epoch, rank));
            }
            if (answer.status() == Message.PieceAck.Status.NOT_SHARED) {
                // the coordinator is on another host: the bytes go over the connection, from the slot
                return put(channel, epoch, rank, slot.bytes().view(), timeout);
            }
            if (!answer.status().held()) {
                throw new CheckpointTransferException("the coordinators refused the piece of epoch " + epoch
                        + " rank " + rank + ": " + answer.detail());
            }
            handedOver = true;
            return answer.status();
        } finally {
            if (!handedOver) {
                slots.giveUp(slot);
            }
        }
    }

    /**
     * Starts getting a piece in the background (a restarted process, as it connects: the fetch then runs while
     * MPI_Init and the program's setup do; a process rolled back in place, as the rollback is announced: the fetch
     * runs while it unwinds and rebuilds); {@link #takeOrGet} takes the answer when it comes to ask.
     */
    void prefetch(Channel channel, long epoch, int rank, Duration timeout) {
        CompletableFuture<PieceBytes> f = new CompletableFuture<>();
        if (prefetched.putIfAbsent(key(epoch, rank), f) != null) {
            // already on its way (a rollback superseded by another to the same epoch)
            return;
        }
        Thread.ofPlatform().daemon().name("fthp-piece-prefetch").start(() -> {
            try {
                f.complete(getShared(channel, epoch, rank, timeout));
            } catch (CheckpointTransferException | RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
    }

    PieceBytes takeOrGet(Channel channel, long epoch, int rank, Duration timeout)
            throws CheckpointTransferException {
        CompletableFuture<PieceBytes> early = prefetched.remove(key(epoch, rank));
        if (early != null) {
            try {
                return early.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // the early fetch failed or is stuck: ask again, now
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CheckpointTransferException("interrupted waiting for the piece of epoch " + epoch);
            }
        }
        return getShared(channel, epoch, rank, timeout);
    }

    PieceBytes getShared(Channel channel, long epoch, int rank, Duration timeout) throws CheckpointTransferException {
        Path marker = directory.marker();
        try {
            Files.createFile(marker);
        } catch (IOException e) {
            // no shared memory to offer: the bytes come over the connection
            return get(channel, new Message.PieceGet(epoch, rank), epoch, rank, timeout);
        }
        try {
            return get(channel, new Message.PieceGetShared(epoch, rank, marker.toString()), epoch, rank, timeout);
        } finally {
            try {
                Files.deleteIfExists(marker);
            } catch (IOException e) {
                // swept when the coordinator closes
            }
        }
    }

    ByteBuffer get(Channel channel, long epoch, int rank, Duration timeout) throws CheckpointTransferException {
        return get(channel, new Message.PieceGet(epoch, rank), epoch, rank, timeout).view();
    }

    private PieceBytes get(Channel channel, Message request, long epoch, int rank, Duration timeout)
            throws CheckpointTransferException {
        CompletableFuture<Got> got = new CompletableFuture<>();
        if (gets.putIfAbsent(key(epoch, rank), got) != null) {
            throw new IllegalStateException("a get of epoch " + epoch + " rank " + rank + " is already under way");
        }
        Got answer;
        try {
            channel.writeAndFlush(request);
            answer = await(got, timeout, "the coordinator to send epoch " + epoch + " rank " + rank);
        } finally {
            gets.remove(key(epoch, rank));
        }
        if (!answer.checked()) {
            CRC32C crc = new CRC32C();
            crc.update(answer.bytes().view());
            if ((int) crc.getValue() != answer.crc32c()) {
                answer.bytes().release();
                throw new CheckpointTransferException(String.format("epoch %d rank %d: the coordinator's copy is"
                        + " damaged (CRC32C %08x, held as %08x)", epoch, rank, (int) crc.getValue(), answer.crc32c()));
            }
        }
        return answer.bytes();
    }

    Message.PieceAck.Status put(Channel channel, long epoch, int rank, ByteBuffer piece, Duration timeout)
            throws CheckpointTransferException {
        ByteBuffer bytes = piece.duplicate();
        CRC32C crc = new CRC32C();
        crc.update(bytes.duplicate());
        CompletableFuture<Message.PieceAck> ack = new CompletableFuture<>();
        if (acks.putIfAbsent(key(epoch, rank), ack) != null) {
            throw new IllegalStateException("a put of epoch " + epoch + " rank " + rank + " is already under way");
        }
        try {
            ChunkSender.send(channel, epoch, rank, (int) crc.getValue(), bytes, Message.PiecePut::new, timeout,
                    ack::isDone);
            Message.PieceAck answer = await(ack, timeout, "the coordinator to hold epoch " + epoch + " rank " + rank);
            if (!answer.status().held()) {
                throw new CheckpointTransferException("the coordinators refused the piece of epoch " + epoch
                        + " rank " + rank + ": " + answer.detail());
            }
            return answer.status();
        } catch (java.io.IOException e) {
            if (e instanceof CheckpointTransferException c) {
                throw c;
            }
            throw new CheckpointTransferException("putting epoch " + epoch + " rank " + rank + ": " + e.getMessage(), e);
        } finally {
            acks.remove(key(epoch, rank));
        }
    }

    /** On the event-loop thread: whether the message was this exchange's. */
    boolean accept(Message message) {
        switch (message) {
            case Message.PieceAck a -> complete(acks.get(key(a.epoch(), a.rank())), a);
            case Message.PieceShared shared -> {
                CompletableFuture<Got> f = gets.get(key(shared.epoch(), shared.rank()));
                if (f != null) {
                    try {
                        PieceBytes mapped = PieceBytes.open(Path.of(shared.path()), false);
                        if (mapped.size() != shared.pieceBytes()) {
                            mapped.release();
                            throw new IOException("it has " + mapped.size() + " bytes, not " + shared.pieceBytes());
                        }
                        if (!f.complete(new Got(mapped, shared.crc32c(), false))) {
                            mapped.release();
                        }
                    } catch (IOException | RuntimeException e) {
                        f.completeExceptionally(new CheckpointTransferException("cannot map the coordinator's "
                                + shared.path() + ": " + e.getMessage(), e));
                    }
                }
            }
            case Message.PieceMissing m -> {
                CompletableFuture<Got> f = gets.get(key(m.epoch(), m.rank()));
                if (f != null) {
                    f.completeExceptionally(new CheckpointTransferException(m.reason()));
                }
            }
            case Message.PieceData d -> {
                try {
                    incoming.accept(d.chunk()).ifPresent(piece -> {
                        CompletableFuture<Got> f = gets.get(key(piece.epoch(), piece.rank()));
                        try {
                            ChunkAssembler.verify(piece);
                            complete(f, new Got(piece.bytes(), piece.crc32c(), true));
                        } catch (ChunkAssembler.BrokenPieceException e) {
                            if (f != null) {
                                f.completeExceptionally(new CheckpointTransferException(e.getMessage()));
                            }
                        }
                    });
                } catch (ChunkAssembler.BrokenPieceException e) {
                    CompletableFuture<Got> f = gets.get(key(d.chunk().epoch(), d.chunk().rank()));
                    if (f != null) {
                        f.completeExceptionally(new CheckpointTransferException(e.getMessage()));
                    }
                }
            }
            case Message.CheckpointDue d -> dueSequence = Math.max(dueSequence, d.sequence());
            case Message.RestorationDue d -> restorationDue = d.due();
            case Message.CheckpointCommitted c -> {
                synchronized (commitSignal) {
                    lastCommitted = Math.max(lastCommitted, c.epoch());
                    commitSignal.notifyAll();
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** The connection ended: every waiting call fails now rather than at its timeout. */
    void disconnected() {
        CheckpointTransferException gone = new CheckpointTransferException("the connection to the coordinator ended");
        acks.values().forEach(f -> f.completeExceptionally(gone));
        gets.values().forEach(f -> f.completeExceptionally(gone));
    }

    long dueSequence() {
        return dueSequence;
    }

    long lastCommitted() {
        return lastCommitted;
    }

    boolean restorationDue() {
        return restorationDue;
    }

    boolean awaitCommitted(long epoch, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (commitSignal) {
            while (lastCommitted < epoch) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(commitSignal, left);
            }
            return true;
        }
    }

    private static <T> void complete(CompletableFuture<T> f, T value) {
        if (f != null) {
            f.complete(value);
        }
    }

    private static <T> T await(CompletableFuture<T> f, Duration timeout, String what)
            throws CheckpointTransferException {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CheckpointTransferException c) {
                throw c;
            }
            throw new CheckpointTransferException("waiting for " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new CheckpointTransferException("no answer from " + what + " within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CheckpointTransferException("interrupted waiting for " + what);
        }
    }
}

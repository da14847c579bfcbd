package org.fthp.coordinator.client;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

import io.netty.channel.Channel;
import org.fthp.coordinator.checkpoint.ChunkAssembler;
import org.fthp.coordinator.checkpoint.ChunkSender;
import org.fthp.coordinator.wire.Message;

/**
 * A process's side of checkpointing with its node coordinator: putting and getting pieces (blocking, with a
 * timeout), and what the coordinators announce (the due sequence, the last committed epoch). Messages arrive on the
 * client's event-loop thread; the blocking calls are made by the process's own threads.
 */
final class PieceExchange {
    private final Map<String, CompletableFuture<Message.PieceAck>> acks = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<ByteBuffer>> gets = new ConcurrentHashMap<>();
    private final ChunkAssembler incoming = new ChunkAssembler();
    private volatile long dueSequence;
    private volatile long lastCommitted = -1;
    private final Object commitSignal = new Object();

    private static String key(long epoch, int rank) {
        return epoch + "/" + rank;
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

    ByteBuffer get(Channel channel, long epoch, int rank, Duration timeout) throws CheckpointTransferException {
        CompletableFuture<ByteBuffer> got = new CompletableFuture<>();
        if (gets.putIfAbsent(key(epoch, rank), got) != null) {
            throw new IllegalStateException("a get of epoch " + epoch + " rank " + rank + " is already under way");
        }
        try {
            channel.writeAndFlush(new Message.PieceGet(epoch, rank));
            return await(got, timeout, "the coordinator to send epoch " + epoch + " rank " + rank);
        } finally {
            gets.remove(key(epoch, rank));
        }
    }

    /** On the event-loop thread: whether the message was this exchange's. */
    boolean accept(Message message) {
        switch (message) {
            case Message.PieceAck a -> complete(acks.get(key(a.epoch(), a.rank())), a);
            case Message.PieceMissing m -> {
                CompletableFuture<ByteBuffer> f = gets.get(key(m.epoch(), m.rank()));
                if (f != null) {
                    f.completeExceptionally(new CheckpointTransferException(m.reason()));
                }
            }
            case Message.PieceData d -> {
                try {
                    incoming.accept(d.chunk()).ifPresent(piece -> {
                        CompletableFuture<ByteBuffer> f = gets.get(key(piece.epoch(), piece.rank()));
                        try {
                            ChunkAssembler.verify(piece);
                            complete(f, ByteBuffer.wrap(piece.bytes()));
                        } catch (ChunkAssembler.BrokenPieceException e) {
                            if (f != null) {
                                f.completeExceptionally(new CheckpointTransferException(e.getMessage()));
                            }
                        }
                    });
                } catch (ChunkAssembler.BrokenPieceException e) {
                    CompletableFuture<ByteBuffer> f = gets.get(key(d.chunk().epoch(), d.chunk().rank()));
                    if (f != null) {
                        f.completeExceptionally(new CheckpointTransferException(e.getMessage()));
                    }
                }
            }
            case Message.CheckpointDue d -> dueSequence = Math.max(dueSequence, d.sequence());
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

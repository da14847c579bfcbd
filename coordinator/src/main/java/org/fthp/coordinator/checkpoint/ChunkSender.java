package org.fthp.coordinator.checkpoint;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.Function;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import org.fthp.coordinator.wire.Message;

/**
 * Sends a piece as consecutive chunks on a channel, waiting for the socket every few chunks so a large piece never
 * sits in the channel's outbound buffer whole. Blocks: never call it on a Netty event-loop thread.
 */
public final class ChunkSender {
    /** Chunks in flight before waiting for the oldest to leave (about 4 MiB). */
    private static final int WINDOW = 64;
    /** Chunks written between flushes (about 1 MiB). */
    private static final int FLUSH_EVERY = 16;

    private ChunkSender() {
    }

    /**
     * @param wrap turns each chunk into its message (PIECE_PUT or PIECE_DATA)
     * @throws java.io.IOException if the channel closes or stalls for {@code stall}
     */
    public static void send(Channel channel, long epoch, int rank, int crc32c, ByteBuffer piece,
                            Function<Message.PieceChunk, Message> wrap, Duration stall) throws java.io.IOException {
        send(channel, epoch, rank, crc32c, piece, wrap, stall, () -> false);
    }

    /**
     * As above; stops early (without error) once {@code answered} says the receiver has already answered (a piece
     * refused at its first chunk need not be sent whole).
     */
    public static void send(Channel channel, long epoch, int rank, int crc32c, ByteBuffer piece,
                            Function<Message.PieceChunk, Message> wrap, Duration stall,
                            java.util.function.BooleanSupplier answered) throws java.io.IOException {
        ByteBuffer src = piece.duplicate();
        long total = src.remaining();
        if (total > Message.MAX_PIECE_BYTES) {
            throw new IllegalArgumentException("a piece of " + total + " bytes is larger than "
                    + Message.MAX_PIECE_BYTES + ", the most a coordinator holds");
        }
        // the future awaited is WINDOW chunks old, so always flushed already (WINDOW is a multiple of FLUSH_EVERY)
        ChannelFuture[] window = new ChannelFuture[WINDOW];
        long offset = 0;
        int n = 0;
        do {
            if (answered.getAsBoolean()) {
                channel.flush();
                return;
            }
            int len = (int) Math.min(Message.PieceChunk.MAX_CHUNK_BYTES, total - offset);
            byte[] bytes = new byte[len];
            src.get(bytes);
            ChannelFuture previous = window[n % WINDOW];
            if (previous != null) {
                await(previous, stall);
            }
            window[n % WINDOW] = channel.write(
                    wrap.apply(new Message.PieceChunk(epoch, rank, crc32c, total, offset, bytes)));
            offset += len;
            n++;
            // one flush (one hand-over to the I/O thread and one system call) per few chunks, not per chunk
            if (n % FLUSH_EVERY == 0 || offset >= total) {
                channel.flush();
            }
        } while (offset < total);
        for (ChannelFuture f : window) {
            if (f != null) {
                await(f, stall);
            }
        }
    }

    private static void await(ChannelFuture f, Duration stall) throws java.io.IOException {
        if (!f.awaitUninterruptibly(stall.toMillis())) {
            throw new java.io.IOException("sending a piece stalled for " + stall.toSeconds() + " s");
        }
        if (!f.isSuccess()) {
            throw new java.io.IOException("sending a piece failed: " + f.cause());
        }
    }
}

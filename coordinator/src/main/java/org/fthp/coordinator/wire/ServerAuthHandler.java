package org.fthp.coordinator.wire;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * Server side of the handshake, placed right after the codec: sends HELLO, accepts exactly one valid AUTH and then
 * removes itself, so nothing behind it ever sees a message from an unauthenticated peer. Anything else — another
 * message type first, a wrong MAC, a codec error, or no AUTH before the deadline — closes the connection.
 */
public final class ServerAuthHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(ServerAuthHandler.class.getName());

    private final JobSecret secret;
    private final Duration deadline;
    private Message.Hello hello;
    private ScheduledFuture<?> deadlineTimer;

    public ServerAuthHandler(JobSecret secret, Duration deadline) {
        this.secret = secret;
        this.deadline = deadline;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        hello = Handshake.newHello();
        ctx.writeAndFlush(hello);
        deadlineTimer = ctx.executor().schedule(
                () -> reject(ctx, "no AUTH within " + deadline.toMillis() + " ms"),
                deadline.toMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // Messages are plain records (the decoder already released the frame), nothing to release here.
        if (!(msg instanceof Message.Auth auth)) {
            reject(ctx, "message before AUTH: " + ((Message) msg).type());
            return;
        }
        if (!Handshake.verify(secret, hello, auth)) {
            reject(ctx, "AUTH failed for claimed " + auth.peerRole() + " '" + auth.identity() + "'");
            return;
        }
        deadlineTimer.cancel(false);
        ctx.fireUserEventTriggered(new PeerAuthenticated(auth.peerRole(), auth.identity()));
        ctx.pipeline().remove(this);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof java.io.IOException) {
            // the socket failed (a process killed while it connected): nothing to warn about, it is gone
            LOG.log(Level.FINE, "coordinator: connection from {0} failed before AUTH: {1}",
                    new Object[] {ctx.channel().remoteAddress(), cause.toString()});
            ctx.close();
            return;
        }
        reject(ctx, "before AUTH: " + cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (deadlineTimer != null) {
            deadlineTimer.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    private static void reject(ChannelHandlerContext ctx, String why) {
        if (ctx.channel().isOpen()) {
            LOG.log(Level.WARNING, "coordinator: closing unauthenticated connection from {0}: {1}",
                    new Object[] {ctx.channel().remoteAddress(), why});
            ctx.close();
        }
    }
}

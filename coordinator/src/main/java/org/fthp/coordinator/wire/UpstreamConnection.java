package org.fthp.coordinator.wire;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The connecting side of a coordinator connection, shared by MPI processes and by child coordinators:
 * answer HELLO, register, wait for REGISTERED, then hand every further message to a sink.
 */
public final class UpstreamConnection {
    private static final Logger LOG = Logger.getLogger(UpstreamConnection.class.getName());

    private UpstreamConnection() {
    }

    /**
     * Opens the connection. The future completes with the channel once the server has acknowledged the
     * registration (so the caller is then guaranteed to receive every later failure set), or exceptionally if the
     * connection fails or closes first.
     *
     * @param inbound called on the channel's event-loop thread for each message after REGISTERED
     * @param onClose called on the event-loop thread when the connection ends (after registration or not)
     */
    public static CompletableFuture<Channel> open(EventLoopGroup group, InetSocketAddress server, JobSecret secret,
                                                  PeerRole role, String identity, Message registration,
                                                  Consumer<Message> inbound, Runnable onClose) {
        CompletableFuture<Channel> registered = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                // Notification latency matters more than packet count: failure sets are tiny and rare.
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FramePipeline.install(ch.pipeline());
                        ch.pipeline().addLast("handshake",
                                new ClientSession(secret, role, identity, registration, registered, inbound, onClose));
                    }
                });
        bootstrap.connect(server).addListener(f -> {
            if (!f.isSuccess()) {
                registered.completeExceptionally(f.cause());
            }
        });
        return registered;
    }

    private static final class ClientSession extends SimpleChannelInboundHandler<Message> {
        private final JobSecret secret;
        private final PeerRole role;
        private final String identity;
        private final Message registration;
        private final CompletableFuture<Channel> registered;
        private final Consumer<Message> inbound;
        private final Runnable onClose;
        private boolean helloSeen;

        ClientSession(JobSecret secret, PeerRole role, String identity, Message registration,
                      CompletableFuture<Channel> registered, Consumer<Message> inbound, Runnable onClose) {
            this.secret = secret;
            this.role = role;
            this.identity = identity;
            this.registration = registration;
            this.registered = registered;
            this.inbound = inbound;
            this.onClose = onClose;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Message msg) {
            if (!helloSeen) {
                if (!(msg instanceof Message.Hello hello)) {
                    fail(ctx, "expected HELLO, got " + msg.type());
                    return;
                }
                helloSeen = true;
                ctx.write(Handshake.answer(secret, hello, role, identity));
                ctx.writeAndFlush(registration);
            } else if (!registered.isDone()) {
                if (!(msg instanceof Message.Registered)) {
                    fail(ctx, "expected REGISTERED, got " + msg.type());
                    return;
                }
                registered.complete(ctx.channel());
            } else {
                inbound.accept(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof java.io.IOException) {
                // the socket failed (the parent's host went): the connection's end reports the loss
                LOG.log(Level.FINE, "coordinator client {0}: connection to {1} failed: {2}",
                        new Object[] {identity, ctx.channel().remoteAddress(), cause.toString()});
                registered.completeExceptionally(cause);
                ctx.close();
                return;
            }
            fail(ctx, cause.toString());
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            registered.completeExceptionally(new IllegalStateException(
                    "connection to coordinator " + ctx.channel().remoteAddress() + " closed before registration"));
            onClose.run();
        }

        private void fail(ChannelHandlerContext ctx, String why) {
            LOG.log(Level.WARNING, "coordinator client {0}: closing connection to {1}: {2}",
                    new Object[] {identity, ctx.channel().remoteAddress(), why});
            registered.completeExceptionally(new IllegalStateException(why));
            ctx.close();
        }
    }
}

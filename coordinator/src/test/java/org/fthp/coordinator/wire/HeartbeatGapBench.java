package org.fthp.coordinator.wire;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * How late heartbeats arrive on this machine: one end of a coordinator link per JVM (run two, as two coordinators
 * run), each sending a HEARTBEAT every interval on its own I/O thread, as {@link LinkHeartbeat} does, and checking
 * every interval as {@link LinkLiveness} does. Prints the gaps between arrivals and the most checks in a row that
 * found nothing new (the link is lost at {@code misses} of them), so that the defaults can be chosen from figures.
 *
 * <pre>
 * java -cp ... org.fthp.coordinator.wire.HeartbeatGapBench listen PORT SECONDS [INTERVAL_MS]
 * java -cp ... org.fthp.coordinator.wire.HeartbeatGapBench connect HOST PORT SECONDS [INTERVAL_MS]
 * </pre>
 * Not a test: a measurement (timing is never asserted).
 */
public final class HeartbeatGapBench {
    /** Left out of the figures: the first heartbeats run code for the first time. */
    private static final long WARM_UP_MILLIS = 5_000;

    private HeartbeatGapBench() {
    }

    public static void main(String[] args) throws Exception {
        boolean listen = args[0].equals("listen");
        int seconds = Integer.parseInt(args[listen ? 2 : 3]);
        int intervalArg = listen ? 3 : 4;
        long intervalMs = args.length > intervalArg ? Long.parseLong(args[intervalArg]) : 250;
        EventLoopGroup io = new NioEventLoopGroup(1);
        List<Long> arrivals = new ArrayList<>();
        int[] worstChecks = {0};
        int[] checks = {0};
        boolean[] steady = {false};
        CountDownLatch linked = new CountDownLatch(1);
        ChannelInitializer<SocketChannel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                FramePipeline.install(ch.pipeline());
                ch.pipeline().addLast(new SimpleChannelInboundHandler<Message>() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        ctx.executor().scheduleWithFixedDelay(() -> {
                            synchronized (arrivals) {
                                checks[0]++;
                                // the start (class loading, first JIT) is left out: LinkLiveness gives it its own grace
                                if (steady[0]) {
                                    worstChecks[0] = Math.max(worstChecks[0], checks[0]);
                                }
                            }
                            ctx.writeAndFlush(new Message.Heartbeat());
                        }, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
                        linked.countDown();
                    }

                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, Message msg) {
                        synchronized (arrivals) {
                            if (steady[0]) {
                                arrivals.add(System.nanoTime());
                            }
                            checks[0] = 0;
                        }
                    }
                });
            }
        };
        Channel channel;
        EventLoopGroup accept = null;
        if (listen) {
            accept = new NioEventLoopGroup(1);
            new ServerBootstrap().group(accept, io).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true).childHandler(init)
                    .bind(Integer.parseInt(args[1])).sync();
            linked.await();
        } else {
            channel = new Bootstrap().group(io).channel(NioSocketChannel.class).option(ChannelOption.TCP_NODELAY, true)
                    .handler(init).connect(new InetSocketAddress(args[1], Integer.parseInt(args[2]))).sync().channel();
            linked.await();
        }
        Thread.sleep(WARM_UP_MILLIS);
        synchronized (arrivals) {
            steady[0] = true;
        }
        Thread.sleep(seconds * 1000L);
        List<Long> gaps = new ArrayList<>();
        int worst;
        synchronized (arrivals) {
            for (int i = 1; i < arrivals.size(); i++) {
                gaps.add(arrivals.get(i) - arrivals.get(i - 1));
            }
            worst = worstChecks[0];
        }
        gaps.sort(null);
        int n = gaps.size();
        System.out.printf(Locale.ROOT, "%s: interval %d ms, %d heartbeats in %d s after a %d s warm-up; gap ms: median %.0f, p99 %.0f,"
                        + " p99.9 %.0f, max %.0f; most checks in a row with nothing heard: %d%n",
                args[0], intervalMs, n + 1, seconds, WARM_UP_MILLIS / 1000, ms(gaps, 0.5), ms(gaps, 0.99), ms(gaps, 0.999),
                n == 0 ? Double.NaN : gaps.get(n - 1) / 1e6, worst);
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (accept != null) {
            accept.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private static double ms(List<Long> sorted, double q) {
        return sorted.isEmpty() ? Double.NaN : sorted.get(Math.min(sorted.size() - 1, (int) (q * sorted.size()))) / 1e6;
    }
}

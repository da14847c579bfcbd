package org.fthp.coordinator.wire;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;

/**
 * Heartbeats on one coordinator link (child to parent, both ends): every interval it sends a HEARTBEAT and checks
 * the other end's silence ({@link LinkLiveness}); a link silent too long is closed, so that whoever owns it handles
 * the loss exactly as a closed connection. Everything the other end sends counts as a sign of life; HEARTBEATs stop
 * here and never reach the session behind.
 *
 * <p>Added to a link's pipeline once it is registered (in front of the session handler). Checks run with a fixed
 * delay, not a fixed rate: after a stall of this end's thread there is one late check, not a burst catching up.
 */
public final class LinkHeartbeat extends ChannelDuplexHandler {
    private static final Message.Heartbeat BEAT = new Message.Heartbeat();

    private final Heartbeats settings;
    private final LongSupplier clock;
    private final LongConsumer onSilent;
    private LinkLiveness liveness;
    private ScheduledFuture<?> ticks;

    /**
     * @param onSilent told how long (ms) the other end was silent, on the link's I/O thread, just before the link is
     *                 closed for it
     */
    public LinkHeartbeat(Heartbeats settings, LongConsumer onSilent) {
        this(settings, System::nanoTime, onSilent);
    }

    /** With the clock the checks read (tests). */
    public LinkHeartbeat(Heartbeats settings, LongSupplier clock, LongConsumer onSilent) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("heartbeats are off");
        }
        this.settings = settings;
        this.clock = clock;
        this.onSilent = onSilent;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        liveness = new LinkLiveness(settings, clock.getAsLong());
        long every = settings.interval().toNanos();
        ticks = ctx.executor().scheduleWithFixedDelay(() -> tick(ctx), every, every, TimeUnit.NANOSECONDS);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        liveness.heard(clock.getAsLong());
        if (!(msg instanceof Message.Heartbeat)) {
            super.channelRead(ctx, msg);
        }
    }

    private void tick(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            stop();
            return;
        }
        long now = clock.getAsLong();
        if (liveness.check(now)) {
            stop();
            onSilent.accept(TimeUnit.NANOSECONDS.toMillis(liveness.silentNanos(now)));
            ctx.close();
            return;
        }
        ctx.writeAndFlush(BEAT);
    }

    private void stop() {
        if (ticks != null) {
            ticks.cancel(false);
            ticks = null;
        }
    }
}

package org.fthp.coordinator.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** The handler on a channel whose time the test moves: what it sends, what it lets through, when it closes. */
class LinkHeartbeatTest {
    private static final Heartbeats SETTINGS = new Heartbeats(Duration.ofMillis(100), 4);

    private long nowNanos;
    private final List<Long> silences = new ArrayList<>();

    private EmbeddedChannel channel() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast("heartbeat", new LinkHeartbeat(SETTINGS, () -> nowNanos, silences::add));
        return ch;
    }

    /** Moves both clocks (the channel's scheduler and the handler's) and runs what fell due. */
    private void advance(EmbeddedChannel ch, long millis) {
        for (long i = 0; i < millis; i += 10) {
            nowNanos += TimeUnit.MILLISECONDS.toNanos(10);
            ch.advanceTimeBy(10, TimeUnit.MILLISECONDS);
            ch.runScheduledPendingTasks();
        }
    }

    private static int heartbeatsSent(EmbeddedChannel ch) {
        int n = 0;
        for (Object m; (m = ch.readOutbound()) != null; ) {
            assertEquals(new Message.Heartbeat(), m);
            n++;
        }
        return n;
    }

    @Test
    void sendsOneHeartbeatPerIntervalAndStaysOpenWhileItHearsTheOtherEnd() {
        EmbeddedChannel ch = channel();
        for (int i = 0; i < 50; i++) {
            advance(ch, 100);
            ch.writeInbound(new Message.Heartbeat());
        }
        assertTrue(ch.isOpen());
        assertEquals(50, heartbeatsSent(ch));
        assertNull(ch.readInbound(), "heartbeats stop at the handler");
        assertEquals(List.of(), silences);
        ch.finishAndReleaseAll();
    }

    @Test
    void otherMessagesCountAsLifeAndPassThrough() {
        EmbeddedChannel ch = channel();
        for (int i = 0; i < 20; i++) {
            advance(ch, 100);
            ch.writeInbound(new Message.ProcessesDone(List.of(i)));
        }
        assertTrue(ch.isOpen());
        for (int i = 0; i < 20; i++) {
            assertEquals(new Message.ProcessesDone(List.of(i)), ch.readInbound());
        }
        ch.finishAndReleaseAll();
    }

    @Test
    void closesTheLinkOnceTheOtherEndFallsSilent() {
        EmbeddedChannel ch = channel();
        advance(ch, 100);
        ch.writeInbound(new Message.Heartbeat());   // heard at 100 ms, then nothing
        advance(ch, 390);
        assertTrue(ch.isOpen(), "3 silent checks: not yet");
        advance(ch, 10);
        assertFalse(ch.isOpen(), "the 4th silent check, 400 ms after the last word, closes it");
        assertEquals(List.of(400L), silences);
        int sent = heartbeatsSent(ch);
        advance(ch, 1_000);
        assertEquals(4, sent, "one per check before the last");
        assertNull(ch.readOutbound(), "nothing more once closed");
        ch.finishAndReleaseAll();
    }

    @Test
    void aLinkNeverHeardGetsTwiceTheTimeout() {
        EmbeddedChannel ch = channel();
        advance(ch, 790);
        assertTrue(ch.isOpen());
        advance(ch, 10);
        assertFalse(ch.isOpen());
        assertEquals(List.of(800L), silences);
        ch.finishAndReleaseAll();
    }
}

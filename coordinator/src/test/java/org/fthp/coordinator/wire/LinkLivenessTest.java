package org.fthp.coordinator.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The silence rule of a heartbeat link, on a clock the test moves. */
class LinkLivenessTest {
    private static final long MS = 1_000_000L;
    /** 100 ms x 4: lost after 4 checks and 400 ms of silence (800 ms before the other end is first heard). */
    private static final Heartbeats SETTINGS = new Heartbeats(Duration.ofMillis(100), 4);

    /** Checks every 100 ms from {@code from} (exclusive) to {@code to} (inclusive); the time of the first true. */
    private static long firstLossBetween(LinkLiveness link, long from, long to) {
        for (long t = from + 100; t <= to; t += 100) {
            if (link.check(t * MS)) {
                return t;
            }
        }
        return -1;
    }

    @Test
    void aSteadyLinkIsNeverLost() {
        LinkLiveness link = new LinkLiveness(SETTINGS, 0);
        for (long t = 100; t <= 60_000; t += 100) {
            link.heard((t - 30) * MS);   // a heartbeat lands 30 ms before each check
            assertFalse(link.check(t * MS), "lost at " + t + " ms");
        }
    }

    @Test
    void aSilentLinkIsLostAfterMissesChecksAndTheTimeout() {
        LinkLiveness link = new LinkLiveness(SETTINGS, 0);
        link.heard(50 * MS);
        assertEquals(500, firstLossBetween(link, 100, 5_000), "4 checks after the last word, and 400 ms of silence");
        assertEquals(450, link.silentNanos(500 * MS) / MS);
    }

    @Test
    void hearingAnythingStartsTheCountAgain() {
        LinkLiveness link = new LinkLiveness(SETTINGS, 0);
        link.heard(0);
        for (long t = 100; t <= 300; t += 100) {
            assertFalse(link.check(t * MS));
        }
        link.heard(350 * MS);
        assertEquals(800, firstLossBetween(link, 300, 5_000));
    }

    @Test
    void theFirstSilenceMayLastTwiceAsLong() {
        LinkLiveness link = new LinkLiveness(SETTINGS, 0);
        assertEquals(800, firstLossBetween(link, 0, 5_000), "the first heartbeat runs code for the first time");
    }

    @Test
    void aStallOfThisEndCountsAsOneCheck() {
        LinkLiveness link = new LinkLiveness(SETTINGS, 0);
        link.heard(0);
        // this end's thread stalls for 2 s (a collection, a starved CPU): its one late check is one miss, not 20,
        // and the other end's heartbeats, read before the check, reset it anyway
        assertFalse(link.check(2_000 * MS));
        assertFalse(link.check(2_100 * MS));
        assertFalse(link.check(2_200 * MS));
        assertTrue(link.check(2_300 * MS), "the fourth check in a row without a word loses it");
    }

    @Test
    void checksTooCloseTogetherDoNotLoseTheLinkBeforeTheTimeout() {
        LinkLiveness link = new LinkLiveness(SETTINGS, 0);
        link.heard(0);
        for (int i = 1; i <= 10; i++) {
            assertFalse(link.check(i * 10 * MS), "check " + i + " at " + i * 10 + " ms");
        }
        assertTrue(link.check(400 * MS));
    }

    @Test
    void settingsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new Heartbeats(Duration.ofMillis(100), 1));
        assertThrows(IllegalArgumentException.class, () -> new Heartbeats(Duration.ZERO, 4));
        assertThrows(IllegalArgumentException.class, () -> new LinkLiveness(Heartbeats.OFF, 0));
        assertEquals(new Heartbeats(Duration.ofMillis(250), 6), Heartbeats.parse("250x6"));
        assertEquals(Heartbeats.OFF, Heartbeats.parse("off"));
        assertFalse(Heartbeats.OFF.enabled());
        assertEquals("250x6", Heartbeats.parse("250x6").toString());
        assertThrows(IllegalArgumentException.class, () -> Heartbeats.parse("250"));
        assertThrows(IllegalArgumentException.class, () -> Heartbeats.parse("fastx6"));
        assertEquals(Duration.ofMillis(1_500), new Heartbeats(Duration.ofMillis(250), 6).timeout());
    }
}

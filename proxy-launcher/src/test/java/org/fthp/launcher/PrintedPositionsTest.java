package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The printed positions a resumed job's output goes on from: kept in place, read back, used by the relay. */
class PrintedPositionsTest {

    @TempDir
    Path dir;

    @Test
    void positionsAreRewrittenInPlaceAndReadBack() throws Exception {
        try (PrintedPositions p = PrintedPositions.open(dir, 2)) {
            p.printed(0, 1234);
            p.printed(3, 7);
            p.printed(0, 2000);
        }
        String text = Files.readString(dir.resolve(PrintedPositions.FILE));
        assertEquals(4, text.lines().count(), text);
        assertTrue(text.startsWith("stdout-0"), text);
        try (PrintedPositions again = PrintedPositions.open(dir, 2)) {
            assertEquals(2000, again.get(0));
            assertEquals(0, again.get(1));
            assertEquals(7, again.get(3));
        }
    }

    @Test
    void aContinuingRelayPrintsWhatTheEarlierJobWroteButNeverPrintedAndRecordsIt() throws Exception {
        Files.writeString(dir.resolve("stdout-0"), "one\ntwo\nthree\n");
        Files.writeString(dir.resolve("stderr-0"), "");
        try (PrintedPositions p = PrintedPositions.open(dir, 1)) {
            p.printed(0, 4);   // "one\n" was printed by the earlier job
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintedPositions p = PrintedPositions.open(dir, 1);
             RankOutputRelay relay = RankOutputRelay.start(dir, 1, out, new ByteArrayOutputStream(), p, true)) {
            Files.writeString(dir.resolve("stdout-0"), "four\n", java.nio.file.StandardOpenOption.APPEND);
        }
        assertEquals("two\nthree\nfour\n", out.toString(StandardCharsets.UTF_8));
        try (PrintedPositions p = PrintedPositions.open(dir, 1)) {
            assertEquals("one\ntwo\nthree\nfour\n".length(), p.get(0));
        }
    }
}

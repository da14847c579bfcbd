package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankOutputRelayTest {

    @TempDir
    Path dir;

    private static void append(Path file, String text) throws Exception {
        try (OutputStream o = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void linesFromTwoRanksStayWholeAndTheLastPartialLineIsPrintedAtClose() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (RankOutputRelay relay = RankOutputRelay.start(dir, 2, out, err)) {
            append(dir.resolve("stdout-0"), "zero ");
            append(dir.resolve("stdout-1"), "one ");
            append(dir.resolve("stdout-0"), "first\nzero ");
            append(dir.resolve("stderr-1"), "oops\n");
            append(dir.resolve("stdout-1"), "first\n");
            append(dir.resolve("stdout-0"), "tail");
        }
        List<String> lines = Arrays.asList(out.toString(StandardCharsets.UTF_8).split("\n"));
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.contains("zero first"), lines.toString());
        assertTrue(lines.contains("one first"), lines.toString());
        assertEquals("zero tail", lines.get(2));
        assertEquals("oops\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void outputWrittenWhileTheJobRunsIsPrintedBeforeItEnds() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RankOutputRelay relay = RankOutputRelay.start(dir, 1, out, new ByteArrayOutputStream())) {
            append(dir.resolve("stdout-0"), "hello\n");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (out.size() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals("hello\n", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aLineLongerThanTheLimitIsPrintedInPiecesWithNothingLost() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String longLine = "x".repeat(200_000);
        try (RankOutputRelay relay = RankOutputRelay.start(dir, 1, out, new ByteArrayOutputStream())) {
            append(dir.resolve("stdout-0"), longLine);
        }
        assertEquals(longLine, out.toString(StandardCharsets.UTF_8));
    }
}

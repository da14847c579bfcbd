package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class ProxyReportPipeTest {

    @Test
    void deliversEveryPidLineAsWrittenAndCleansUp() throws Exception {
        BlockingQueue<Long> pids = new LinkedBlockingQueue<>();
        Path fifo;
        Thread reader;
        try (ProxyReportPipe pipe = ProxyReportPipe.open(pids::add, "test-proxy-reports")) {
            fifo = pipe.path();
            assertEquals("p", fifoType(fifo));
            assertEquals(0600, (int) Files.getAttribute(fifo, "unix:mode") & 0777);
            reader = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("test-proxy-reports")).findFirst().orElseThrow();
            // Separate opens, as the proxy does per death; a line split across writes; garbage in between.
            write(fifo, "4242\n");
            write(fifo, "not a pid\n-5\n17");
            write(fifo, "3\n");
            assertEquals(4242L, pids.poll(5, TimeUnit.SECONDS));
            assertEquals(173L, pids.poll(5, TimeUnit.SECONDS));
            // After the writers closed, the reader keeps reading (it holds a write end: no end-of-file).
            write(fifo, "99\n");
            assertEquals(99L, pids.poll(5, TimeUnit.SECONDS));
            assertNull(pids.poll(100, TimeUnit.MILLISECONDS));
        }
        reader.join(2000);
        assertFalse(reader.isAlive(), "closing wakes the blocked reader");
        assertFalse(Files.exists(fifo));
        assertFalse(Files.exists(fifo.getParent()));
    }

    private static String fifoType(Path p) throws Exception {
        // S_IFIFO is 0010000 in the mode's file-type bits
        return ((int) Files.getAttribute(p, "unix:mode") & 0170000) == 0010000 ? "p" : "not a fifo";
    }

    private static void write(Path fifo, String text) throws Exception {
        try (FileOutputStream out = new FileOutputStream(fifo.toFile(), true)) {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void directoryIsPrivate() throws Exception {
        try (ProxyReportPipe pipe = ProxyReportPipe.open(pid -> { }, "test-proxy-reports-2")) {
            assertEquals(0700, (int) Files.getAttribute(pipe.path().getParent(), "unix:mode") & 0777);
            assertTrue(pipe.path().toString().indexOf(':') < 0, "usable in a colon-separated list");
        }
    }

    /** A multi-host job's pipe: at a path fthp-run chose, in a directory that stays when it existed before. */
    @Test
    void makesThePipeAtAGivenPathAndRefusesADirectoryOthersCanEnter(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        BlockingQueue<Long> pids = new LinkedBlockingQueue<>();
        Path made = tmp.resolve("job");
        try (ProxyReportPipe pipe = ProxyReportPipe.openAt(made, "proxy-report.h1", pids::add, "test-at")) {
            assertEquals(made.resolve("proxy-report.h1"), pipe.path());
            assertEquals(0700, (int) Files.getAttribute(made, "unix:mode") & 0777);
            write(pipe.path(), "77\n");
            assertEquals(77L, pids.poll(5, TimeUnit.SECONDS));
        }
        assertFalse(Files.exists(made), "made by the pipe, removed with it");

        Path existing = Files.createDirectory(tmp.resolve("existing"));
        Files.setPosixFilePermissions(existing, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Files.writeString(existing.resolve("rank-0.stats"), "x");
        try (ProxyReportPipe pipe = ProxyReportPipe.openAt(existing, "proxy-report.h0", pids::add, "test-at")) {
            assertTrue(Files.exists(pipe.path()));
        }
        assertTrue(Files.exists(existing.resolve("rank-0.stats")), "a directory that was there stays, with its files");
        assertFalse(Files.exists(existing.resolve("proxy-report.h0")));

        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> ProxyReportPipe.openAt(open, "proxy-report.h0", pids::add, "test-at"));
    }
}

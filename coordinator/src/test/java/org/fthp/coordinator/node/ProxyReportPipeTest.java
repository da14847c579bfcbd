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
}

package org.fthp.coordinator.liveness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.wire.JobSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real processes: a JVM holds its life lock, and is killed or ends normally while this one watches. */
@Timeout(30)
class LifeLockTest {

    /** The holder: takes the lock at args[0], says "held", and on a line from stdin releases it and exits. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            LifeLock lock = LifeLock.hold(Path.of(args[0]));
            System.out.println(lock == null ? "none" : "held");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            lock.release();
            System.out.println("released");
            System.out.flush();
        }
    }

    private static Process startHolder(Path path) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Holder.class.getName(), path.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String first = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertEquals("held", first);
        return p;
    }

    private static Path freshPath(String what) {
        return LifeLock.pathFor(JobSecret.generate(), 7, ProcessHandle.current().pid() * 10 + what.length());
    }

    @Test
    void aKilledHolderIsSeenDeadAndItsFileRemoved() throws Exception {
        assumeTrue(LifeLock.available());
        Path path = freshPath("killed");
        Process holder = startHolder(path);
        try {
            CountDownLatch died = new CountDownLatch(1);
            assertNotNull(LifeLock.watch(path, died::countDown, () -> { }, "test-life-watch"));
            assertFalse(died.await(300, TimeUnit.MILLISECONDS), "a live holder is not dead");
            holder.destroyForcibly();
            assertTrue(died.await(10, TimeUnit.SECONDS), "the watcher saw the kill");
            holder.waitFor();
            for (int i = 0; i < 100 && Files.exists(path); i++) {
                Thread.sleep(10);
            }
            assertFalse(Files.exists(path));
        } finally {
            holder.destroyForcibly();
            Files.deleteIfExists(path);
        }
    }

    @Test
    void aReleasedLockIsNoDeath() throws Exception {
        assumeTrue(LifeLock.available());
        Path path = freshPath("released");
        Process holder = startHolder(path);
        try {
            CountDownLatch died = new CountDownLatch(1);
            assertNotNull(LifeLock.watch(path, died::countDown, () -> { }, "test-life-watch"));
            try (OutputStream in = holder.getOutputStream()) {
                in.write('\n');
            }
            assertTrue(holder.waitFor(10, TimeUnit.SECONDS));
            assertEquals(0, holder.exitValue());
            assertFalse(died.await(500, TimeUnit.MILLISECONDS), "a normal end is not a failure");
            assertFalse(Files.exists(path));
        } finally {
            holder.destroyForcibly();
            Files.deleteIfExists(path);
        }
    }

    @Test
    void noFileNoWatch() {
        assertNull(LifeLock.watch(freshPath("missing"), () -> { }, () -> { }, "test-life-watch"));
    }

    @Test
    void theBoardCarriesEachNewerFailureSetToTheHolder() throws Exception {
        assumeTrue(LifeLock.available());
        Path path = freshPath("board");
        LifeLock lock = LifeLock.hold(path);
        assertNotNull(lock);
        CountDownLatch died = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        try {
            LifeLock.Board board = LifeLock.watch(path, died::countDown, ended::countDown, "test-life-watch");
            assertNotNull(board);
            long[] epoch = new long[1];
            assertEquals(0, lock.boardEpoch());
            board.post(3, new int[] {1, 5});
            assertEquals(3, lock.boardEpoch());
            assertArrayEquals(new int[] {1, 5}, lock.readBoard(epoch));
            assertEquals(3, epoch[0]);
            board.post(2, new int[] {1});   // older: a late message, never shown
            assertArrayEquals(new int[] {1, 5}, lock.readBoard(epoch));
            assertEquals(3, epoch[0]);
            board.post(4, new int[] {1, 5, 6});
            assertArrayEquals(new int[] {1, 5, 6}, lock.readBoard(epoch));
            assertEquals(4, epoch[0]);
            board.post(5, new int[2000]);   // more than the page holds: the connection brings it
            assertEquals(5, lock.boardEpoch());
            assertNull(lock.readBoard(epoch));
        } finally {
            lock.release();
        }
        assertTrue(ended.await(5, TimeUnit.SECONDS));
        assertEquals(1, died.getCount(), "a released lock is no death");
    }

    @Test
    void aStaleFileOfTheSamePidIsReplaced() throws Exception {
        assumeTrue(LifeLock.available());
        Path path = freshPath("stale");
        Files.write(path, new byte[] {1, 2, 3});
        LifeLock lock = LifeLock.hold(path);
        try {
            assertNotNull(lock);
            assertEquals(4096, Files.size(path));
        } finally {
            if (lock != null) {
                lock.release();
            }
            Files.deleteIfExists(path);
        }
        assertNull(Files.exists(path) ? path : null);
    }
}

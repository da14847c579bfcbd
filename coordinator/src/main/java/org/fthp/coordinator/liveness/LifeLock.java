package org.fthp.coordinator.liveness;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.wire.JobSecret;

/**
 * A process's death seen the moment its threads go, before the kernel tears down its memory: a robust,
 * process-shared pthread mutex in a small file under /dev/shm, locked by the process for its whole life and
 * waited for by its node's coordinator.
 *
 * <p>Why: a SIGKILLed JVM's socket closes, and its parent reaps it, only after the kernel has unmapped its whole
 * address space (exit_mmap, then exit_files, then the exit notification). For a rank of a hundred megabytes
 * or more that is most of the detection time. A robust mutex is released by the kernel when its owner thread
 * exits (the robust list is walked before the thread drops its memory), so the waiter's
 * {@code pthread_mutex_lock} returns {@code EOWNERDEAD} within a few milliseconds of the kill.
 *
 * <p>A normal end releases the lock first ({@link #release}): the waiter then gets the lock without
 * {@code EOWNERDEAD} and reports nothing, so a process that finishes is never taken for a failed one.
 *
 * <p>The rest of the file's page is the process's failure board ({@link Board}): the coordinator posts each
 * failure set there as well as on the connection, and the process reads it on its own thread (a sequence lock
 * guards a torn read), so it learns of a failure without waiting for its connection's thread to be scheduled.
 *
 * <p>The file's name holds a tag of the job secret, the native rank and the pid
 * ({@link #pathFor}); the process makes it (0600, after removing a stale one of its own) before it
 * registers, the coordinator opens it when the process registers and removes it when the wait ends.
 * Linux and glibc only (robust mutexes, /dev/shm): anywhere else {@link #hold} and {@link #watch} do
 * nothing and the lost connection and the launcher's report still detect the death.
 */
public final class LifeLock {

    /** Bytes reserved for the {@code pthread_mutex_t} at offset 0 (glibc: 40 on x86-64, 48 on aarch64). */
    private static final long MUTEX_BYTES = 64;
    /** Bytes reserved for a {@code pthread_mutexattr_t} (glibc: 4). */
    private static final long ATTR_BYTES = 16;
    private static final long FILE_BYTES = 4096;
    // The failure board, after the mutex: the latest failure set the coordinator sent this process, written by the
    // coordinator and read by the process's own thread in its duty cycle, so a failure set reaches a process that
    // computes or spins without waiting for its coordinator connection's thread to be scheduled.
    /** A sequence lock: odd while the coordinator writes, so a reader retries a torn read. */
    private static final long SEQ = 64;
    private static final long EPOCH = 72;
    /** How many native ranks follow at {@link #RANKS}; {@link #TOO_MANY}: read the connection instead. */
    private static final long COUNT = 80;
    private static final long RANKS = 88;
    private static final int MAX_RANKS = (int) ((FILE_BYTES - RANKS) / Integer.BYTES);
    private static final int TOO_MANY = -1;
    private static final java.lang.invoke.VarHandle LONG = java.lang.foreign.ValueLayout.JAVA_LONG.varHandle();
    private static final int PTHREAD_MUTEX_ROBUST = 1;
    private static final int PTHREAD_PROCESS_SHARED = 1;
    /** Linux's EOWNERDEAD (x86-64 and aarch64). */
    private static final int EOWNERDEAD = 130;
    private static final Path DIRECTORY = Path.of("/dev/shm");

    private static final MethodHandle ATTR_INIT;
    private static final MethodHandle ATTR_SET_ROBUST;
    private static final MethodHandle ATTR_SET_PSHARED;
    private static final MethodHandle MUTEX_INIT;
    private static final MethodHandle LOCK;
    private static final MethodHandle UNLOCK;
    private static final boolean AVAILABLE;

    static {
        MethodHandle[] h = new MethodHandle[6];
        boolean ok = false;
        try {
            Linker linker = Linker.nativeLinker();
            String[] names = {"pthread_mutexattr_init", "pthread_mutexattr_setrobust", "pthread_mutexattr_setpshared",
                    "pthread_mutex_init", "pthread_mutex_lock", "pthread_mutex_unlock"};
            FunctionDescriptor[] descriptors = {FunctionDescriptor.of(JAVA_INT, ADDRESS),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), FunctionDescriptor.of(JAVA_INT, ADDRESS),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS)};
            for (int i = 0; i < names.length; i++) {
                MemorySegment symbol = linker.defaultLookup().find(names[i]).orElse(null);
                if (symbol == null) {
                    break;
                }
                h[i] = linker.downcallHandle(symbol, descriptors[i]);
            }
            ok = h[5] != null && "Linux".equals(System.getProperty("os.name")) && Files.isDirectory(DIRECTORY);
        } catch (RuntimeException | LinkageError e) {
            ok = false;
        }
        ATTR_INIT = h[0];
        ATTR_SET_ROBUST = h[1];
        ATTR_SET_PSHARED = h[2];
        MUTEX_INIT = h[3];
        LOCK = h[4];
        UNLOCK = h[5];
        AVAILABLE = ok;
    }

    private final Path path;
    /** The whole mapped file: the mutex, then the failure board. */
    private final MemorySegment file;
    private final CountDownLatch releaseAsked = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private LifeLock(Path path, MemorySegment file) {
        this.path = path;
        this.file = file;
    }

    /** Whether this platform has what the lock needs (Linux, glibc's robust mutexes, /dev/shm). */
    public static boolean available() {
        return AVAILABLE;
    }

    /** The lock file of native rank {@code nativeRank} of the job holding {@code secret}, living as {@code pid}. */
    public static Path pathFor(JobSecret secret, int nativeRank, long pid) {
        byte[] tag = secret.mac("fthp-life-lock".getBytes(java.nio.charset.StandardCharsets.US_ASCII), new byte[0]);
        return DIRECTORY.resolve("fthp-life-" + HexFormat.of().formatHex(tag, 0, 6) + "-" + nativeRank + "-" + pid);
    }

    /**
     * The process side: makes the file at {@code path} and locks its mutex on a daemon thread that holds it until
     * {@link #release}; returns once it is locked. Null when unavailable or the file cannot be made (the death is
     * then seen the slower ways).
     */
    public static LifeLock hold(Path path) {
        if (!AVAILABLE) {
            return null;
        }
        try {
            if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(path);   // a former process with this pid, killed before anyone removed it
            }
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            MemorySegment mutex;
            try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // mapped for the rest of the process: the kernel reads the robust list entry here when it dies
                mutex = file.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES, Arena.global());
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment attr = arena.allocate(ATTR_BYTES, 8);
                check((int) ATTR_INIT.invokeExact(attr), "pthread_mutexattr_init");
                check((int) ATTR_SET_ROBUST.invokeExact(attr, PTHREAD_MUTEX_ROBUST), "pthread_mutexattr_setrobust");
                check((int) ATTR_SET_PSHARED.invokeExact(attr, PTHREAD_PROCESS_SHARED), "pthread_mutexattr_setpshared");
                check((int) MUTEX_INIT.invokeExact(mutex.asSlice(0, MUTEX_BYTES), attr), "pthread_mutex_init");
            }
            LifeLock lock = new LifeLock(path, mutex);
            CountDownLatch locked = new CountDownLatch(1);
            int[] rc = {-1};
            Thread holder = Thread.ofPlatform().daemon().name("fthp-life-lock").unstarted(() -> {
                try {
                    rc[0] = (int) LOCK.invokeExact(mutex);
                    locked.countDown();
                    if (rc[0] != 0) {
                        return;
                    }
                    while (true) {
                        try {
                            lock.releaseAsked.await();
                            break;
                        } catch (InterruptedException e) {
                            // only release() ends the hold
                        }
                    }
                    int ignored = (int) UNLOCK.invokeExact(mutex);
                } catch (Throwable t) {
                    locked.countDown();
                } finally {
                    lock.released.countDown();
                }
            });
            holder.start();
            if (!locked.await(5, TimeUnit.SECONDS) || rc[0] != 0) {
                Files.deleteIfExists(path);
                return null;
            }
            return lock;
        } catch (Throwable e) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // nothing more to do: the lock is just not there
            }
            return null;
        }
    }

    /** The epoch on the failure board (0 if none yet): one memory read, for every turn of the duty cycle. */
    public long boardEpoch() {
        return (long) LONG.getAcquire(file, EPOCH);
    }

    /**
     * The failure set on the board, its epoch in {@code epoch[0]}: the native ranks that died, or null when the
     * coordinator is writing it just now or it holds too many ranks (then the connection brings it).
     */
    public int[] readBoard(long[] epoch) {
        long before = (long) LONG.getAcquire(file, SEQ);
        if ((before & 1) != 0) {
            return null;
        }
        long e = file.get(java.lang.foreign.ValueLayout.JAVA_LONG, EPOCH);
        int n = file.get(JAVA_INT, COUNT);
        if (n < 0 || n > MAX_RANKS) {
            return null;
        }
        int[] ranks = file.asSlice(RANKS, (long) n * Integer.BYTES).toArray(JAVA_INT);
        java.lang.invoke.VarHandle.loadLoadFence();
        if ((long) LONG.getAcquire(file, SEQ) != before) {
            return null;
        }
        epoch[0] = e;
        return ranks;
    }

    /** A normal end: unlocks (the waiter reports nothing) and removes the file; waits up to a second. */
    public void release() {
        releaseAsked.countDown();
        try {
            released.await(1, TimeUnit.SECONDS);
            Files.deleteIfExists(path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the coordinator removes it too
        }
    }

    /**
     * The coordinator's side of one process's file: where it posts each failure set for the process to read.
     * Posting after the wait has ended (the process is gone) does nothing.
     */
    public static final class Board {
        private final MemorySegment file;
        private final Arena arena;
        private boolean closed;

        private Board(MemorySegment file, Arena arena) {
            this.file = file;
            this.arena = arena;
        }

        /** Posts failure set {@code epoch} ({@code deadNativeRanks}: every native rank that died so far). */
        public synchronized void post(long epoch, int[] deadNativeRanks) {
            if (closed || epoch <= file.get(java.lang.foreign.ValueLayout.JAVA_LONG, EPOCH)) {
                return;
            }
            long seq = file.get(java.lang.foreign.ValueLayout.JAVA_LONG, SEQ);
            LONG.setRelease(file, SEQ, seq + 1);
            java.lang.invoke.VarHandle.storeStoreFence();
            if (deadNativeRanks.length > MAX_RANKS) {
                file.set(JAVA_INT, COUNT, TOO_MANY);
            } else {
                MemorySegment.copy(deadNativeRanks, 0, file, JAVA_INT, RANKS, deadNativeRanks.length);
                file.set(JAVA_INT, COUNT, deadNativeRanks.length);
            }
            LONG.setRelease(file, EPOCH, epoch);
            LONG.setRelease(file, SEQ, seq + 2);
        }

        private synchronized void close() {
            closed = true;
            arena.close();
        }
    }

    /**
     * The coordinator side: if the file at {@code path} exists and is this user's, waits for its mutex on a daemon
     * thread named {@code threadName}; {@code onDeath} runs there if the holder died without releasing it, then
     * {@code onEnd} in every case. The file is removed once the wait ends. Returns the file's failure board, or
     * null if no wait started.
     */
    public static Board watch(Path path, Runnable onDeath, Runnable onEnd, String threadName) {
        if (!AVAILABLE) {
            return null;
        }
        MemorySegment mutex;
        try {
            if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)
                    || !Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName().equals(System.getProperty("user.name"))
                    || Files.size(path) < FILE_BYTES) {
                return null;
            }
            Arena arena = Arena.ofShared();
            try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                mutex = file.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES, arena);
            }
            Board board = new Board(mutex, arena);
            Thread.ofPlatform().daemon().name(threadName).start(() -> {
                try {
                    int rc = (int) LOCK.invokeExact(mutex);
                    if (rc == 0 || rc == EOWNERDEAD) {
                        // off this thread's robust list before the memory goes (an owner-died mutex stays unusable)
                        int ignored = (int) UNLOCK.invokeExact(mutex);
                    }
                    Files.deleteIfExists(path);
                    if (rc == EOWNERDEAD) {
                        onDeath.run();
                    }
                } catch (Throwable t) {
                    // no verdict: the other detectors still see the death
                } finally {
                    board.close();
                    onEnd.run();
                }
            });
            return board;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void check(int rc, String call) throws IOException {
        if (rc != 0) {
            throw new IOException(call + " failed: " + rc);
        }
    }
}

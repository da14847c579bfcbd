package org.fthp.replication.progress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether this JVM's JIT compiler threads are compiling right now: each compiler thread's state in
 * {@code /proc/self/task/TID/stat} is R (running or runnable) while it compiles and S while it waits for work.
 *
 * <p>A program's first thousands of messages run FTHP-J's path interpreted and profiled while C1 and C2 compile it,
 * and a rank waiting for a message spins on a core its own compiler threads need: on a host with as many ranks as
 * cores the compiles, and so the slow start, last about twice as long as the compiler's CPU time. A wait that finds
 * the compilers busy can sleep instead ({@link BackoffIdleStrategy}, when asked), which hands the core to them.
 *
 * <p>Reading the state costs a system call per compiler thread, so an answer is kept for {@link #RECHECK_NANOS} and
 * the stat files stay open (a read at offset 0 makes the kernel write them afresh). Where there is no
 * {@code /proc} (not Linux) or no compiler thread is found, the compilers never count as busy. Safe from any
 * thread: at worst two threads read the files at once and both store a fresh answer.
 */
public final class JitActivity {

    /** How long an answer stays good: far shorter than a compile, far longer than the read. */
    static final long RECHECK_NANOS = 20_000;
    /** The thread names HotSpot gives its compiler threads, as /proc shows them (15 characters at most). */
    private static final List<String> COMPILER_NAMES = List.of("C1 CompilerThre", "C2 CompilerThre");

    /** The process's compiler threads, found once (a JVM starts them with itself). */
    public static final JitActivity PROCESS = new JitActivity(Path.of("/proc/self/task"));

    private final FileChannel[] stats;
    private final ByteBuffer buffer = ByteBuffer.allocate(512);
    private volatile long checkedAt;
    private volatile boolean compiling;

    JitActivity(Path tasks) {
        this.stats = openCompilerStats(tasks);
    }

    /** How many compiler threads this instance watches (none: it always answers false). */
    int watched() {
        return stats.length;
    }

    /** Whether a compiler thread was compiling at most {@link #RECHECK_NANOS} ago. */
    public boolean compiling() {
        if (stats.length == 0) {
            return false;
        }
        long now = System.nanoTime();
        if (now - checkedAt < RECHECK_NANOS) {
            return compiling;
        }
        boolean any = false;
        synchronized (buffer) {
            for (FileChannel stat : stats) {
                any |= running(stat);
            }
        }
        compiling = any;
        checkedAt = now;
        return any;
    }

    /** Whether the thread whose stat file this is runs: the state letter after the parenthesised name. */
    private boolean running(FileChannel stat) {
        buffer.clear();
        try {
            int n = stat.read(buffer, 0);
            for (int i = n - 1; i > 1; i--) {
                if (buffer.get(i) == ')') {
                    return i + 2 < n && buffer.get(i + 2) == 'R';
                }
            }
        } catch (IOException e) {
            // the thread ended (a JVM may retire an idle compiler thread): it compiles nothing
        }
        return false;
    }

    private static FileChannel[] openCompilerStats(Path tasks) {
        List<FileChannel> found = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (COMPILER_NAMES.stream().anyMatch(name::startsWith)) {
                        found.add(FileChannel.open(task.resolve("stat"), StandardOpenOption.READ));
                    }
                } catch (IOException e) {
                    // a thread that ended while listed
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no /proc: the compilers never count as busy
        }
        return found.toArray(FileChannel[]::new);
    }
}

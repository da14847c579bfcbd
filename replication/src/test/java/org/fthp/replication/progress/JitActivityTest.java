package org.fthp.replication.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JitActivityTest {

    @TempDir
    Path tasks;

    /** A thread directory as /proc/self/task shows it: its name and its stat line with the state letter. */
    private void thread(int tid, String name, char state) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.writeString(dir.resolve("comm"), name + "\n");
        Files.writeString(dir.resolve("stat"), tid + " (" + name + ") " + state + " 1 1 1 0 -1 4194624 0 0\n");
    }

    private static void pastRecheck() throws InterruptedException {
        Thread.sleep(JitActivity.RECHECK_NANOS / 1_000_000 + 1);
    }

    @Test
    void compilesWhileACompilerThreadRunsAndNotWhileAllWait() throws Exception {
        thread(10, "java", 'R');
        thread(11, "C1 CompilerThre", 'S');
        thread(12, "C2 CompilerThre", 'S');
        thread(13, "VM Thread", 'R');
        JitActivity jit = new JitActivity(tasks);
        assertEquals(2, jit.watched());
        assertFalse(jit.compiling(), "both compiler threads wait; the running threads are not compilers");
        thread(12, "C2 CompilerThre", 'R');
        pastRecheck();
        assertTrue(jit.compiling());
        thread(12, "C2 CompilerThre", 'S');
        pastRecheck();
        assertFalse(jit.compiling());
    }

    @Test
    void aNameWithParenthesesAndSpacesIsSkippedToTheState() throws Exception {
        // the state follows the last ')': a thread may name itself anything
        thread(11, "C1 CompilerThre", 'S');
        Files.writeString(tasks.resolve("11/stat"), "11 (C1 Compiler) x) R 1 1\n");
        assertTrue(new JitActivity(tasks).compiling());
    }

    @Test
    void withoutCompilerThreadsOrProcNothingCompiles() throws Exception {
        thread(10, "java", 'R');
        assertEquals(0, new JitActivity(tasks).watched());
        assertFalse(new JitActivity(tasks).compiling());
        JitActivity none = new JitActivity(tasks.resolve("absent"));
        assertEquals(0, none.watched());
        assertFalse(none.compiling());
    }

    @Test
    void aCompilerThreadThatEndedCompilesNothing() throws Exception {
        thread(12, "C2 CompilerThre", 'R');
        JitActivity jit = new JitActivity(tasks);
        Files.delete(tasks.resolve("12/stat"));   // an open file stays readable: the kernel's would fail instead
        assertEquals(1, jit.watched());
        jit.compiling();   // must not throw whatever the file holds now
    }

    @Test
    void thisJvmsCompilerThreadsAreFound() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        // tiered compilation: one C1 and one C2 thread at least, from the JVM's start
        assertTrue(JitActivity.PROCESS.watched() >= 2, "compiler threads found: " + JitActivity.PROCESS.watched());
    }

    /** Work the JIT compiles (C1, then C2 with its loop optimisations) the first time it runs hot. */
    private static long hotLoop(long n) {
        long h = n;
        for (long i = 0; i < n; i++) {
            h = h * 31 + (i ^ (h >>> 7));
        }
        return h;
    }

    @Test
    void seesThisJvmCompileWhileWorkGetsHot() throws Exception {
        assumeTrue(JitActivity.PROCESS.watched() > 0, "Linux with HotSpot's compiler threads only");
        long[] sink = {0};
        Thread work = new Thread(() -> {
            for (int k = 1; k < 20_000 && !Thread.currentThread().isInterrupted(); k++) {
                sink[0] += hotLoop(k);
            }
        });
        boolean seen = false;
        work.start();
        try {
            // the JVM compiles hotLoop and its caller while it runs: a compiler thread is running at some point
            while (work.isAlive() && !seen) {
                seen = JitActivity.PROCESS.compiling();
            }
        } finally {
            work.interrupt();
            work.join();
        }
        assertTrue(seen, "no compiler thread seen running while hotLoop got hot (" + sink[0] + ")");
    }

    @Test
    void aWaitAsksAboutTheCompilersOnlyOnceItYields() {
        int[] asked = {0};
        BackoffIdleStrategy idle = new BackoffIdleStrategy(() -> {
            asked[0]++;
            return true;
        });
        idle.reset();
        for (int i = 0; i < BackoffIdleStrategy.SPINS; i++) {
            idle.idle();
        }
        assertEquals(0, asked[0], "a short wait spins and never looks at the JIT");
        idle.idle();
        assertEquals(1, asked[0]);
        idle.idle(1);   // work done: the wait starts over, spinning
        idle.idle();
        assertEquals(1, asked[0]);
    }
}

package org.fthp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JitCpuTest {

    @TempDir
    Path tasks;

    private void thread(int tid, String name, long utime, long stime) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.writeString(dir.resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 4194368 10 0 0 0 " + utime + " "
                + stime + " 0 0 20 0 1 0 100 0 0\n");
    }

    @Test
    void onlyTheCompilerThreadsCountInMilliseconds() throws Exception {
        thread(1, "java", 500, 500);
        thread(2, "C1 CompilerThre", 3, 1);
        thread(3, "C2 CompilerThre", 20, 2);
        thread(4, "VM Thread", 7, 7);
        assertEquals(260.0, JitCpu.millis(tasks));
    }

    @Test
    void noProcIsMinusOne() {
        assertEquals(-1.0, JitCpu.millis(tasks.resolve("absent")));
    }

    @Test
    void thisJvmsCompilersHaveWorked() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        double before = JitCpu.millis();
        assertTrue(before >= 0, "read " + before);
    }
}

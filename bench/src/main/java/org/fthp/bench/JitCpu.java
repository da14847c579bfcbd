package org.fthp.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time this JVM's JIT compiler threads have used so far, from {@code /proc/self/task} (Linux): what the
 * compiles of a program's first seconds take from cores its ranks share, a figure a loaded host inflates far less
 * than a latency.
 */
final class JitCpu {

    /** The kernel's unit of {@code utime} and {@code stime} (USER_HZ, 100 on Linux whatever the kernel's HZ). */
    private static final double MILLIS_PER_TICK = 10.0;

    private JitCpu() {}

    /** Milliseconds of CPU the C1 and C2 compiler threads have used, or -1 where there is no {@code /proc}. */
    static double millis() {
        return millis(Path.of("/proc/self/task"));
    }

    static double millis(Path tasks) {
        long ticks = 0;
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    String name = stat.substring(stat.indexOf('(') + 1, close);
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        // after the name: state, ppid, pgrp, session, tty, tpgid, flags, 4 fault counts, utime, stime
                        String[] f = stat.substring(close + 2).split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException | RuntimeException e) {
                    // a thread that ended while listed, or a line not as expected: not counted
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            return -1;
        }
        return ticks * MILLIS_PER_TICK;
    }
}

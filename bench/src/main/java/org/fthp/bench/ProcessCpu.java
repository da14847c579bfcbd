package org.fthp.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The CPU a benchmark's timed part costs this whole process (every thread: the program's, the JIT's, the
 * engine's), per call, for bench/sdc.sh to sum over a job's processes: wall time on cores shared by more processes
 * than they hold moves with where the scheduler puts them, CPU time much less.
 *
 * <p>Only with {@code -Dfthp.bench.cpuDir=DIR}: every process, a replica too (whose stdout a replicated job does
 * not show), then writes {@code DIR/cpu-PID.txt}, one line {@code cpu <kind> <size> <us_per_call>} per size.
 */
final class ProcessCpu {

    private static final String DIR = System.getProperty("fthp.bench.cpuDir");
    private static final com.sun.management.OperatingSystemMXBean OS = DIR == null ? null
            : (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ProcessCpu() {}

    /** The process's CPU time so far in nanoseconds; 0 when nothing is recorded. */
    static long nanos() {
        return OS == null ? 0 : OS.getProcessCpuTime();
    }

    /** Writes each size's CPU per call ({@code cpuNanos[i]} over {@code calls[i]} calls), if asked for. */
    static void write(String kind, int[] sizes, long[] cpuNanos, long[] calls) {
        if (DIR == null) {
            return;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sizes.length; i++) {
            out.append(String.format(Locale.ROOT, "cpu %s %d %.4f%n", kind, sizes[i], cpuNanos[i] / 1e3 / calls[i]));
        }
        try {
            Path dir = Files.createDirectories(Path.of(DIR));
            Files.writeString(dir.resolve("cpu-" + ProcessHandle.current().pid() + ".txt"), out);
        } catch (IOException e) {
            System.err.println("ProcessCpu: cannot write to " + DIR + ": " + e.getMessage());
        }
    }
}

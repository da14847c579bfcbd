package org.fthp.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The CPU a benchmark's timed part costs this whole process (every live thread: the program's, the JIT's, the
 * engine's), per call, for bench/sdc.sh to sum over a job's processes: wall time on cores shared by more processes
 * than they hold moves with where the scheduler puts them, CPU time much less.
 *
 * <p>Only with {@code -Dfthp.bench.cpuDir=DIR}: every process, a replica too (whose stdout a replicated job does
 * not show), then writes {@code DIR/cpu-PID.txt}, one line {@code cpu <kind> <size> <us_per_call>} per size.
 */
final class ProcessCpu {

    private static final String DIR = System.getProperty("fthp.bench.cpuDir");
    private static final ThreadMXBean THREADS = DIR == null ? null : ManagementFactory.getThreadMXBean();

    private ProcessCpu() {}

    /**
     * The CPU time of the process's live threads so far in nanoseconds; 0 when nothing is recorded. Summed thread
     * by thread: the process's own count ({@code getProcessCpuTime}) moves in clock ticks of 10 ms here, a
     * step of 5 µs per round trip over the 2 000 round trips of the 64 KiB size.
     */
    static long nanos() {
        if (THREADS == null) {
            return 0;
        }
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) {
                sum += t;
            }
        }
        return sum;
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

package org.fthp.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * When this process started, in epoch milliseconds. {@code ProcessHandle.Info.startInstant} adds the process's
 * start (clock ticks since boot, /proc/self/stat) to the boot time of /proc/stat, which is in whole seconds: the
 * result is up to a second early, by the same amount for every process until the next boot, which would swamp
 * bench/start.sh's "to main" (tens of milliseconds for a JVM).
 * Here the process's age is taken from now instead, both ends on the boot clock: /proc/uptime (hundredths of a
 * second) minus the start tick.
 */
final class ProcessStart {

    /** USER_HZ, the unit of /proc's tick counts: 100 on Linux whatever the kernel's own tick rate. */
    private static final long TICKS_PER_SECOND = 100;
    /** starttime's position in /proc/self/stat counted after the command name, which may hold spaces. */
    private static final int START_FIELD_AFTER_NAME = 19;

    private ProcessStart() {}

    static long epochMillis() {
        long now = System.currentTimeMillis();
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
            long startTicks = Long.parseLong(fields[START_FIELD_AFTER_NAME]);
            double uptimeSeconds = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
            long ageMillis = Math.round(uptimeSeconds * 1000) - startTicks * 1000 / TICKS_PER_SECOND;
            return now - ageMillis;
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(now);
        }
    }
}

package org.fthp.replication.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.fthp.msglog.SendLog;

/**
 * What one process reports at Finalize for the run's summary: fthp-run names
 * a directory ({@code FTHP_STATS_DIR}), each process writes one line there,
 * and the launcher adds them up per side when the job ends.
 */
public final class RunStatistics {

    public static final String DIR_ENV = "FTHP_STATS_DIR";

    private RunStatistics() {}

    /**
     * Marks this process as started (MPI_Init done, coordinator connected):
     * fthp-run's failure injector counts kill times from when all are.
     */
    public static void markReady(int nativeRank) {
        String dir = System.getenv(DIR_ENV);
        if (dir == null || dir.isBlank()) {
            return;
        }
        try {
            Files.writeString(Path.of(dir, "ready-" + nativeRank), "");
        } catch (IOException e) {
            org.fthp.replication.output.RuntimeMessages.say("fthp: cannot write to " + dir + ": " + e.getMessage());
        }
    }

    /**
     * {@code role logical messages bytes logPeakBytes logged evicted failuresKnown promoted repairMicros
     * trimMicros pulled pushed} in a file named after the native rank; {@code repairMicros} is a comma-separated
     * list ("-" if none); {@code pulled} and {@code pushed} count the large payloads received that their senders
     * offered from shared memory, copied from there or sent after all.
     */
    public static void write(int nativeRank, int logicalRank, boolean replica, MessageRecords records,
                             int failuresKnown, boolean promoted, java.util.List<Long> repairMicros) {
        String dir = System.getenv(DIR_ENV);
        if (dir == null || dir.isBlank()) {
            return;
        }
        SendLog log = records.sendLog();
        String line = (replica ? "REP" : "CMP") + " " + logicalRank + " " + records.nativeMessages() + " "
                + records.nativeBytes() + " " + (log == null ? 0 : log.peakBytes()) + " "
                + (log == null ? 0 : log.logged()) + " " + (log == null ? 0 : log.evicted()) + " " + failuresKnown
                + " " + (promoted ? 1 : 0) + " " + (repairMicros.isEmpty() ? "-"
                : repairMicros.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")))
                + " " + (records.acknowledgements() == null ? 0 : records.acknowledgements().trimNanos() / 1000)
                + " " + records.pulledPayloads() + " " + records.pushedPayloads() + "\n";
        try {
            Files.writeString(Path.of(dir, "rank-" + nativeRank + ".stats"), line);
        } catch (IOException e) {
            org.fthp.replication.output.RuntimeMessages.say("fthp: cannot write run statistics to " + dir + ": " + e.getMessage());
        }
    }
}

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

    /** {@code role logical messages bytes logPeakBytes logged evicted} in a file named after the native rank. */
    public static void write(int nativeRank, int logicalRank, boolean replica, MessageRecords records) {
        String dir = System.getenv(DIR_ENV);
        if (dir == null || dir.isBlank()) {
            return;
        }
        SendLog log = records.sendLog();
        String line = (replica ? "REP" : "CMP") + " " + logicalRank + " " + records.nativeMessages() + " "
                + records.nativeBytes() + " " + (log == null ? 0 : log.peakBytes()) + " "
                + (log == null ? 0 : log.logged()) + " " + (log == null ? 0 : log.evicted()) + "\n";
        try {
            Files.writeString(Path.of(dir, "rank-" + nativeRank + ".stats"), line);
        } catch (IOException e) {
            System.err.println("fthp: cannot write run statistics to " + dir + ": " + e.getMessage());
        }
    }
}

package org.fthp.replication.repair;

import java.util.ArrayList;
import java.util.List;

/**
 * How long each repair of this process took, step by step (docs/DESIGN.md §9), for
 * the run's summary and the recovery benchmark. Detection is the time from
 * the coordinator's announcement arriving here to the repair starting (the
 * process may have been computing outside MPI).
 */
public final class RepairTimes {

    /** One repair, in nanoseconds per step. */
    public record Repair(long waitedNanos, long agreeNanos, long rebuildNanos, long recordsNanos,
                         long resendNanos, boolean promoted) {
        public long totalNanos() {
            return agreeNanos + rebuildNanos + recordsNanos + resendNanos;
        }
    }

    private final List<Repair> repairs = new ArrayList<>();

    public void record(long waited, long agree, long rebuild, long records, long resend, boolean promoted) {
        repairs.add(new Repair(waited, agree, rebuild, records, resend, promoted));
    }

    /**
     * Appends the latest repair as one JSON line to {@code FTHP_REPAIR_LOG}
     * when that names a file (the recovery benchmark reads it): its epoch,
     * its pid, the wall-clock time this process was back in user code, each step
     * in microseconds, and which way the failure set reached it first
     * ({@code board} or {@code connection}).
     */
    public void append(long epoch, int nativeRank, java.time.Instant end, String notifiedVia) {
        String path = System.getenv("FTHP_REPAIR_LOG");
        if (path == null || path.isBlank() || repairs.isEmpty()) {
            return;
        }
        Repair r = repairs.get(repairs.size() - 1);
        // a StringBuilder, not String.format: a JVM's first Formatter loads the locale data (dozens of classes),
        // on this survivor's way back to user code and on the core the other survivors still repair on
        String line = new StringBuilder(192).append("{\"epoch\":").append(epoch)
                .append(",\"nativeRank\":").append(nativeRank)
                .append(",\"pid\":").append(ProcessHandle.current().pid())
                .append(",\"endMicros\":").append(end.getEpochSecond() * 1_000_000 + end.getNano() / 1000)
                .append(",\"waited\":").append(r.waitedNanos() / 1000)
                .append(",\"agree\":").append(r.agreeNanos() / 1000)
                .append(",\"rebuild\":").append(r.rebuildNanos() / 1000)
                .append(",\"records\":").append(r.recordsNanos() / 1000)
                .append(",\"resend\":").append(r.resendNanos() / 1000)
                .append(",\"promoted\":").append(r.promoted())
                .append(",\"via\":\"").append(notifiedVia).append("\"}\n").toString();
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of(path), line, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            org.fthp.replication.output.RuntimeMessages.say("fthp: cannot append to " + path + ": " + e.getMessage());
        }
    }

    public List<Repair> repairs() { return List.copyOf(repairs); }

    /** Whether one of the repairs made this process the computational copy. */
    public boolean promoted() {
        return repairs.stream().anyMatch(Repair::promoted);
    }
}

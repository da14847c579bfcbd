package org.fthp.replication.repair;

import java.util.ArrayList;
import java.util.List;

/**
 * How long each repair of this process took, step by step (DESIGN §9), for
 * the run's summary and the recovery benchmark. Detection is the time from
 * the coordinator's announcement arriving here to the repair starting (the
 * process may have been computing outside MPI).
 */
public final class RepairTimes {

    /** One repair, in nanoseconds per step. */
    public record Repair(long waitedNanos, long agreeNanos, long rebuildNanos, long reissueNanos,
                         long recoverNanos, boolean promoted) {
        public long totalNanos() {
            return agreeNanos + rebuildNanos + reissueNanos + recoverNanos;
        }
    }

    private final List<Repair> repairs = new ArrayList<>();
    private long resentMessages;
    private long resentBytes;

    public void record(long waited, long agree, long rebuild, long reissue, long recover, boolean promoted) {
        repairs.add(new Repair(waited, agree, rebuild, reissue, recover, promoted));
    }

    public void resent(long bytes) {
        resentMessages++;
        resentBytes += bytes;
    }

    public List<Repair> repairs() { return List.copyOf(repairs); }

    /** Whether one of the repairs made this process the computational copy. */
    public boolean promoted() {
        return repairs.stream().anyMatch(Repair::promoted);
    }
    public long resentMessages() { return resentMessages; }
    public long resentBytes() { return resentBytes; }
}

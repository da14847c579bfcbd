package org.fthp.launcher;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What fthp-run learns about checkpoints and restarts while a job runs: the primary's commit and interval lines,
 * every coordinator's memory line, and the restarts it made itself; printed as the summary's checkpoint line.
 *
 * <p>Time lost to rollback, per restart: the work done since the checkpoint the job restarts from (from that
 * commit, or from the incarnation's launch when there was none, to the moment the abort reached fthp-run), which
 * is done again, plus the relaunch itself (from the abort to the new mpirun's start). Re-initialisation inside the
 * program (MPI_Init, reading the piece) is not in it: fthp-run cannot see where the program's main loop resumes.
 */
final class CheckpointReport {

    /** One restart, as the job-restarted event records it. */
    record Restart(int number, long epoch, int lostRank, double lostWorkSeconds, double restartSeconds) {}

    private int commits;
    private final List<Double> costs = new ArrayList<>();
    private long lastEpoch = -1;
    private long lastCommitNanos;
    private long totalBytesLast;
    private double intervalSeconds = Double.NaN;
    private final Map<Integer, long[]> memoryByNode = new TreeMap<>();
    private final List<Restart> restarts = new ArrayList<>();
    private long lastOnDisk = -1;

    /** A line a coordinator printed; those that are not about checkpoints are ignored. */
    /** Each rollback in place's seconds (FTHP_CHECKPOINT_ROLLED_BACK), in order. */
    private final List<Double> rollbackSeconds = new ArrayList<>();
    /** Each replica restored from a spare's seconds (FTHP_CHECKPOINT_REPLICA_RESTORED), in order. */
    private final List<Double> restoredSeconds = new ArrayList<>();
    /** Spares that died while they waited (FTHP_SPARE_LOST). */
    private int sparesLost;

    synchronized void line(String line) {
        Map<String, String> f = fields(line);
        if (line.startsWith("FTHP_CHECKPOINT_COMMITTED")) {
            long epoch = Long.parseLong(f.getOrDefault("epoch", "-1"));
            if (epoch > lastEpoch) {
                lastEpoch = epoch;
                lastCommitNanos = System.nanoTime();
            }
            commits++;
            totalBytesLast = Long.parseLong(f.getOrDefault("bytes", "0"));
            String cost = f.getOrDefault("cost", "-");
            if (!cost.equals("-")) {
                costs.add(Double.parseDouble(cost));
            }
        } else if (line.startsWith("FTHP_CHECKPOINT_INTERVAL")) {
            intervalSeconds = Double.parseDouble(f.getOrDefault("seconds", "NaN"));
        } else if (line.startsWith("FTHP_CHECKPOINT_MEMORY")) {
            int node = Integer.parseInt(f.get("node"));
            memoryByNode.put(node, new long[] {Long.parseLong(f.get("held")), Long.parseLong(f.get("peak")),
                    Long.parseLong(f.get("limit"))});
        } else if (line.startsWith("FTHP_CHECKPOINT_ROLLED_BACK")) {
            rollbackSeconds.add(Double.parseDouble(f.getOrDefault("seconds", "NaN")));
        } else if (line.startsWith("FTHP_CHECKPOINT_REPLICA_RESTORED")) {
            restoredSeconds.add(Double.parseDouble(f.getOrDefault("seconds", "NaN")));
        } else if (line.startsWith("FTHP_SPARE_LOST")) {
            sparesLost++;
        } else if (line.startsWith("FTHP_CHECKPOINT_ON_DISK")) {
            lastOnDisk = Math.max(lastOnDisk, Long.parseLong(f.getOrDefault("epoch", "-1")));
        }
    }

    /** The newest committed epoch fthp-run has heard of, and when (System.nanoTime) it heard. */
    /** The newest epoch committed in memory, -1 before the first. */
    synchronized long lastCommitted() {
        return lastEpoch;
    }

    /** The newest epoch the primary has committed to the checkpoint directory, -1 before the first. */
    synchronized long lastOnDisk() {
        return lastOnDisk;
    }

    synchronized OptionalLong lastCommitNanos() {
        return lastEpoch < 0 ? OptionalLong.empty() : OptionalLong.of(lastCommitNanos);
    }

    synchronized void restarted(Restart r) {
        restarts.add(r);
    }

    synchronized List<Restart> restarts() {
        return List.copyOf(restarts);
    }

    synchronized int commits() {
        return commits;
    }

    /** The checkpoint line of the exit summary, if checkpoints or restarts happened. */
    synchronized void print(PrintStream err) {
        if (commits == 0 && restarts.isEmpty() && rollbackSeconds.isEmpty() && restoredSeconds.isEmpty()
                && sparesLost == 0) {
            return;
        }
        long peak = memoryByNode.values().stream().mapToLong(v -> v[1]).max().orElse(0);
        long limit = memoryByNode.values().stream().mapToLong(v -> v[2]).max().orElse(0);
        double lostWork = restarts.stream().mapToDouble(Restart::lostWorkSeconds).sum();
        double relaunch = restarts.stream().mapToDouble(Restart::restartSeconds).sum();
        StringBuilder b = new StringBuilder("fthp-run: summary: ");
        b.append(commits).append(commits == 1 ? " checkpoint" : " checkpoints");
        if (!costs.isEmpty()) {
            b.append(String.format(Locale.ROOT, " (mean cost %.3f s", costs.stream().mapToDouble(d -> d).average()
                    .orElse(0)));
            b.append(", last ").append(RunSummary.bytes(totalBytesLast)).append(')');
        }
        if (!Double.isNaN(intervalSeconds)) {
            b.append(String.format(Locale.ROOT, ", interval %.1f s", intervalSeconds));
        }
        if (limit > 0) {
            b.append("; coordinator memory peak ").append(RunSummary.bytes(peak)).append(" of ")
                    .append(RunSummary.bytes(limit));
        }
        if (lastOnDisk >= 0) {
            b.append("; on disk up to epoch ").append(lastOnDisk);
        }
        if (!rollbackSeconds.isEmpty()) {
            // rollbacks in place (spares): from the primary's decision to every process back in its body
            b.append("; ").append(rollbackSeconds.size())
                    .append(rollbackSeconds.size() == 1 ? " rollback in place (" : " rollbacks in place (")
                    .append(rollbackSeconds.stream().map(s -> String.format(Locale.ROOT, "%.3f s", s))
                            .collect(java.util.stream.Collectors.joining(", "))).append(')');
        }
        if (!restoredSeconds.isEmpty()) {
            // replicas restored from spares: each a rollback in place to the epoch just committed
            b.append("; ").append(restoredSeconds.size())
                    .append(restoredSeconds.size() == 1 ? " replica restored (" : " replicas restored (")
                    .append(restoredSeconds.stream().map(s -> String.format(Locale.ROOT, "%.3f s", s))
                            .collect(java.util.stream.Collectors.joining(", "))).append(')');
        }
        if (sparesLost > 0) {
            b.append("; ").append(sparesLost).append(sparesLost == 1 ? " spare" : " spares").append(" lost while waiting");
        }
        b.append("; ").append(restarts.size()).append(restarts.size() == 1 ? " restart" : " restarts");
        if (!restarts.isEmpty()) {
            b.append(String.format(Locale.ROOT, ", %.1f s lost to rollback (%.1f s of work redone, %.1f s relaunching)",
                    lostWork + relaunch, lostWork, relaunch));
        }
        err.println(b);
    }

    /** {@code key=value} words of a line (the last field, reason= or basis=, may hold spaces and is cut short). */
    static Map<String, String> fields(String line) {
        Map<String, String> out = new TreeMap<>();
        for (String word : line.split(" ")) {
            int eq = word.indexOf('=');
            if (eq > 0) {
                out.putIfAbsent(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return out;
    }
}

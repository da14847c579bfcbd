package org.fthp.coordinator.spares;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.Message;

/**
 * The primary's view of what a rollback in place needs, and its decision when a rank loses every copy (pure
 * logic, called under the node's lock). A rollback needs a ready spare, a committed epoch to resume from, and every
 * live process of the program inside its resilient body ({@code Checkpoint.resilient}) of the current generation,
 * so that each can unwind to it; otherwise the job falls back to a relaunch, and the planner says why.
 *
 * <p>After a rollback the spare holds the lost rank: the dead process is retired (its failure no longer counts
 * against its rank) and the spare is one of the program's processes, whose end the spares' release waits for.
 *
 * <p>A process of the rollback under way that fails before every process is back in its body (a survivor, or the
 * spare that took the rank) supersedes it with another rollback to the same epoch, of the next generation, whose
 * layout leaves the dead out: a rank it leaves without a copy takes another spare, else the job relaunches. The
 * processes still on their way abandon the superseded one before its blocking calls (runtime.Engine#rollBack).
 */
public final class RollbackPlanner {

    /** What the primary does about lost ranks: a rollback, or a relaunch for the reason given. */
    public sealed interface Decision permits RollBack, Relaunch { }

    public record RollBack(Message.Rollback message) implements Decision { }

    public record Relaunch(String reason) implements Decision { }

    private final int programProcesses;
    /** Dead native process to the spare that took its place. */
    private final Map<Integer, Integer> replacedBy = new HashMap<>();
    private final Set<Integer> readySpares = new LinkedHashSet<>();
    /** Native process to the generation it last entered its body in. */
    private final Map<Integer, Integer> inBody = new HashMap<>();
    private int generation;
    private boolean sparesSeen;
    /** The rollback under way (until every live process is back in its body), or null. */
    private Message.Rollback underWay;
    private long underWaySince;

    public RollbackPlanner(int programProcesses) {
        this.programProcesses = programProcesses;
    }

    public void stateReported(Message.ProcessState s) {
        switch (s.state()) {
            case SPARE_READY -> {
                readySpares.add(s.nativeRank());
                sparesSeen = true;
            }
            case SPARE_GONE -> readySpares.remove(s.nativeRank());
            case IN_BODY -> inBody.merge(s.nativeRank(), s.generation(), Math::max);
            case BODY_LEFT -> inBody.remove(s.nativeRank());
        }
    }

    /** The native processes that hold the program's copies now: the launch's, each replaced by its spare. */
    public List<Integer> programNatives() {
        List<Integer> natives = new ArrayList<>(programProcesses);
        for (int rank = 0; rank < programProcesses; rank++) {
            int at = rank;
            while (replacedBy.containsKey(at)) {
                at = replacedBy.get(at);
            }
            natives.add(at);
        }
        return natives;
    }

    /** The failures that still count against a rank: a process a spare replaced no longer does. */
    public List<FailedProcess> counted(List<FailedProcess> failed) {
        if (replacedBy.isEmpty()) {
            return failed;
        }
        List<FailedProcess> out = new ArrayList<>(failed.size());
        for (FailedProcess p : failed) {
            if (!replacedBy.containsKey(p.nativeRank())) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Whether a process of {@code newlyFailed} is one of the rollback under way's (then it must be superseded, even
     * if no rank lost every copy: the others would wait for the dead one in the rollback's blocking calls).
     */
    public boolean failsRollbackUnderWay(List<FailedProcess> newlyFailed) {
        if (underWay == null) {
            return false;
        }
        List<Integer> natives = programNatives();
        for (FailedProcess p : newlyFailed) {
            if (natives.contains(p.nativeRank())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rank {@code lost} lost every copy ({@code failed}: the job-wide failed set), or, during a rollback, a process
     * of it failed ({@code lost} then may be empty). A rollback when it can be, resuming from {@code committed}
     * and numbering new checkpoints above {@code highestEpochSeen}.
     */
    public Decision decide(List<Integer> lost, long failureEpoch, List<FailedProcess> failed, JobShape shape,
                           long committed, long highestEpochSeen, long nowNanos) {
        Message.Rollback superseded = underWay;
        if (lost.size() > 1 || (lost.isEmpty() && superseded == null)) {
            return new Relaunch("ranks " + lost + " lost every copy at once (a rollback replaces one rank)");
        }
        int rank = lost.isEmpty() ? superseded.lostRank() : lost.get(0);
        String during = superseded == null ? "" : " (during the rollback of generation " + superseded.generation()
                + ")";
        if (!lost.isEmpty() && readySpares.isEmpty()) {
            return new Relaunch("no spare left" + during);
        }
        if (committed < 1) {
            return new Relaunch("no checkpoint committed yet");
        }
        Set<Integer> dead = new java.util.HashSet<>();
        for (FailedProcess p : failed) {
            dead.add(p.nativeRank());
        }
        int deadNative = programNatives().get(rank);
        for (int n : programNatives()) {
            // during a rollback every live process is on its way back to its body, or already there
            if (superseded == null && !dead.contains(n) && inBody.getOrDefault(n, -1) != generation) {
                return new Relaunch("native process " + n + " is not inside Checkpoint.resilient (the program"
                        + " marks no rollback point)");
            }
        }
        int spare;
        if (lost.isEmpty()) {
            // no rank lost every copy: the superseded rollback's spare keeps the rank it took
            spare = superseded.spareNative();
            deadNative = superseded.deadNative();
        } else {
            spare = readySpares.iterator().next();
            readySpares.remove(spare);
            replacedBy.put(deadNative, spare);
        }
        generation++;
        List<Integer> natives = programNatives();
        int n = shape.logicalRanks();
        List<Integer> cmp = new ArrayList<>(n);
        List<Integer> rep = new ArrayList<>(n);
        for (int l = 0; l < n; l++) {
            // as the survivors' repairs left it: a replica whose computational copy died computes, a dead replica
            // is gone; the lost rank is the spare's alone
            int c = natives.get(l);
            int r = l < shape.replicated() ? natives.get(n + l) : -1;
            boolean cAlive = !dead.contains(c);
            boolean rAlive = r >= 0 && !dead.contains(r);
            cmp.add(cAlive ? c : r);
            rep.add(cAlive && rAlive ? r : -1);
        }
        underWay = new Message.Rollback(generation, committed, Math.max(committed, highestEpochSeen) + 2, rank,
                deadNative, spare, cmp, rep, failureEpoch);
        if (superseded == null) {
            // a superseding rollback's time counts from the first decision: the job was rolling back since
            underWaySince = nowNanos;
        }
        return new RollBack(underWay);
    }

    /** The rollback under way, or null. */
    public Message.Rollback underWay() {
        return underWay;
    }

    /**
     * Whether the rollback under way is complete (every live program process back in its body, {@code dead}: the
     * failed native ranks); if so it is over, and its seconds since the decision are returned, else -1.
     */
    public double completedAt(Set<Integer> dead, long nowNanos) {
        if (underWay == null) {
            return -1;
        }
        for (int n : programNatives()) {
            if (!dead.contains(n) && inBody.getOrDefault(n, -1) != generation) {
                return -1;
            }
        }
        underWay = null;
        return (nowNanos - underWaySince) / 1e9;
    }

    /**
     * The live program processes not yet back in their body in the rollback under way; the spare only if it is the
     * one (it cannot start its body before every survivor has come back to build the new communicators with it).
     */
    public List<Integer> lagging(Set<Integer> dead) {
        List<Integer> out = new ArrayList<>();
        for (int n : programNatives()) {
            if (!dead.contains(n) && inBody.getOrDefault(n, -1) != generation) {
                out.add(n);
            }
        }
        if (underWay != null && out.size() > 1) {
            out.remove(Integer.valueOf(underWay.spareNative()));
        }
        return out;
    }

    /** Whether spare {@code nativeRank} is ready to take a lost rank. */
    public boolean isReadySpare(int nativeRank) {
        return readySpares.contains(nativeRank);
    }

    /** How many spares are ready to take a lost rank. */
    public int readySpares() {
        return readySpares.size();
    }

    /** Whether the job has had spares at all (a relaunch is then worth a word on why). */
    public boolean sparesSeen() {
        return sparesSeen;
    }

    public int generation() {
        return generation;
    }
}

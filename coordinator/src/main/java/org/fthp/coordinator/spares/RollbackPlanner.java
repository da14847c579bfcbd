package org.fthp.coordinator.spares;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;

/**
 * The primary's view of what a rollback in place needs, and its decision when a rank loses every copy (pure
 * logic, called under the node's lock). A rollback needs a ready spare, a committed epoch to resume from, and every
 * live process of the program inside its resilient body ({@code Checkpoint.resilient}) of the current generation,
 * so that each can unwind to it; otherwise the job falls back to a relaunch, and the planner says why.
 *
 * <p>After a rollback the spare holds the lost rank (or, when it restores a replica ({@link ReplicaRestoration}),
 * the lost copy's place): the dead process is retired (its failure no longer counts against its rank) and the spare
 * is one of the program's processes, whose end the spares' release waits for.
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
    /** The node each native process was launched on (fthp-run's placement), or null when all share one. */
    private final int[] nodeOf;
    /** Dead native process to the spare that took its place. */
    private final Map<Integer, Integer> replacedBy = new HashMap<>();
    private final Set<Integer> readySpares = new LinkedHashSet<>();
    /** Native process to the generation it last entered its body in. */
    private final Map<Integer, Integer> inBody = new HashMap<>();
    /** Native processes whose body returned (until they enter one again): they are on their way to MPI_Finalize. */
    private final Set<Integer> bodyReturned = new HashSet<>();
    private int generation;
    private boolean sparesSeen;
    /** The rollback under way (until every live process is back in its body), or null. */
    private Message.Rollback underWay;
    private long underWaySince;
    /** The layout the last rollback told every process (null: the launch's, made at first use). */
    private CopyLayout layout;

    public RollbackPlanner(int programProcesses) {
        this(programProcesses, null);
    }

    /** {@code nodeOf}: the node of each native process, spares included; null when they all share one node. */
    public RollbackPlanner(int programProcesses, int[] nodeOf) {
        this.programProcesses = programProcesses;
        this.nodeOf = nodeOf == null ? null : nodeOf.clone();
    }

    public void stateReported(Message.ProcessState s) {
        switch (s.state()) {
            case SPARE_READY -> {
                readySpares.add(s.nativeRank());
                sparesSeen = true;
            }
            case SPARE_GONE -> readySpares.remove(s.nativeRank());
            case IN_BODY -> {
                inBody.merge(s.nativeRank(), s.generation(), Math::max);
                bodyReturned.remove(s.nativeRank());
            }
            case BODY_LEFT -> {
                inBody.remove(s.nativeRank());
                bodyReturned.add(s.nativeRank());
            }
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
        Set<Integer> dead = nativeRanksOf(failed);
        // during a rollback every live process is on its way back to its body, or already there
        String outside = superseded == null ? notInBody(dead) : null;
        if (outside != null) {
            return new Relaunch(outside);
        }
        long firstEpoch = Math.max(committed, highestEpochSeen) + 2;
        if (lost.isEmpty()) {
            return new RollBack(again(superseded, dead, shape, committed, firstEpoch, failureEpoch));
        }
        return new RollBack(begin(rank, programNatives().get(rank), dead, shape, committed, firstEpoch, failureEpoch,
                nowNanos));
    }

    /**
     * Supersedes the rollback under way when one of its processes failed and no rank lost every copy: the next
     * generation, the same epoch, the layout without the dead. Its spare keeps the rank it took; a spare that was
     * restoring a replica and died leaves the rank as the repairs leave it (no process taken).
     */
    private Message.Rollback again(Message.Rollback superseded, Set<Integer> dead, JobShape shape, long epoch,
                                   long firstEpoch, long failureEpoch) {
        generation++;
        layout = layoutNow(shape).without(dead);
        int spare = superseded.spareNative();
        boolean kept = spare != Message.Rollback.NO_PROCESS && !dead.contains(spare);
        underWay = new Message.Rollback(generation, epoch, firstEpoch, superseded.lostRank(),
                kept ? superseded.deadNative() : Message.Rollback.NO_PROCESS,
                kept ? spare : Message.Rollback.NO_PROCESS, layout.cmp(), layout.rep(), failureEpoch);
        return underWay;
    }

    /**
     * Starts a rollback in place (the checks made): the first ready spare takes native {@code deadNative}'s place
     * among the program's processes and fills rank {@code rank}'s hole in the layout (its only copy, or its replica);
     * every process resumes from {@code epoch}.
     */
    Message.Rollback begin(int rank, int deadNative, Set<Integer> dead, JobShape shape, long epoch, long firstEpoch,
                           long failureEpoch, long nowNanos) {
        int spare = spareFor(deadNative);
        readySpares.remove(spare);
        generation++;
        replacedBy.put(deadNative, spare);
        layout = layoutNow(shape).after(dead, rank, spare);
        boolean superseding = underWay != null;
        underWay = new Message.Rollback(generation, epoch, firstEpoch, rank, deadNative, spare, layout.cmp(),
                layout.rep(), failureEpoch);
        if (!superseding) {
            // a superseding rollback's time counts from the first decision: the job was rolling back since
            underWaySince = nowNanos;
        }
        return underWay;
    }

    /**
     * Starts a rollback in place after the twins of rank {@code rank} differed (the checks made, {@link SdcRollback}):
     * no process taken or retired, the layout as the repairs left it; every process resumes from {@code epoch}.
     */
    Message.Rollback beginInPlace(int rank, Set<Integer> dead, JobShape shape, long epoch, long firstEpoch,
                                  long failureEpoch, long nowNanos) {
        generation++;
        layout = layoutNow(shape).without(dead);
        underWay = new Message.Rollback(generation, epoch, firstEpoch, rank, Message.Rollback.NO_PROCESS,
                Message.Rollback.NO_PROCESS, layout.cmp(), layout.rep(), failureEpoch);
        underWaySince = nowNanos;
        return underWay;
    }

    /** The first live program process not inside its body of the current generation, said as a reason; else null. */
    String notInBody(Set<Integer> dead) {
        for (int n : programNatives()) {
            if (!dead.contains(n) && inBody.getOrDefault(n, -1) != generation) {
                return bodyReturned.contains(n)
                        ? "native process " + n + " has left Checkpoint.resilient (its body returned: what a"
                                + " process does after that cannot be rolled back in place)"
                        : "native process " + n + " is not inside Checkpoint.resilient (the program"
                                + " marks no rollback point)";
            }
        }
        return null;
    }

    /** The layout the processes were last told (the launch's before any rollback). */
    CopyLayout layoutNow(JobShape shape) {
        if (layout == null) {
            layout = CopyLayout.launch(shape);
        }
        return layout;
    }

    /** Whether a spare is ready to take a role. */
    boolean hasReadySpare() {
        return !readySpares.isEmpty();
    }

    /**
     * The dead process among the ones that hold rank {@code rank}'s copies now ({@code rank} and {@code N + rank}
     * at launch, each replaced by its spare), or -1 if both live.
     */
    int deadCopyOf(int rank, JobShape shape, Set<Integer> dead) {
        List<Integer> natives = programNatives();
        if (dead.contains(natives.get(rank))) {
            return natives.get(rank);
        }
        int replicaAt = shape.logicalRanks() + rank;
        return rank < shape.replicated() && dead.contains(natives.get(replicaAt)) ? natives.get(replicaAt) : -1;
    }

    static Set<Integer> nativeRanksOf(List<FailedProcess> failed) {
        Set<Integer> dead = new java.util.HashSet<>();
        for (FailedProcess p : failed) {
            dead.add(p.nativeRank());
        }
        return dead;
    }

    /**
     * The ready spare to take {@code deadNative}'s place: the first on another node than it, where a failure of that
     * node's hardware is less likely to follow; else the first.
     */
    private int spareFor(int deadNative) {
        if (nodeOf != null && deadNative < nodeOf.length) {
            for (int spare : readySpares) {
                if (spare < nodeOf.length && nodeOf[spare] != nodeOf[deadNative]) {
                    return spare;
                }
            }
        }
        return readySpares.iterator().next();
    }

    /**
     * A batch of failures as they count for the program: a process failed as a {@link Role#SPARE} (it was launched
     * as one, and the node that saw it fail cannot tell whether a rollback gave it a rank since: a whole host lost)
     * is the copy of the rank it took (its only copy, or a restored replica) if it took one; else it was a waiting
     * spare, which is no longer ready and is left out (its loss is nobody's failure).
     */
    public List<FailedProcess> asHeld(List<FailedProcess> failed, int logicalRanks) {
        List<FailedProcess> out = null;
        List<Integer> natives = null;
        for (int k = 0; k < failed.size(); k++) {
            FailedProcess p = failed.get(k);
            if (p.role() != Role.SPARE) {
                if (out != null) {
                    out.add(p);
                }
                continue;
            }
            if (out == null) {
                out = new ArrayList<>(failed.subList(0, k));
                natives = programNatives();
            }
            int slot = natives.indexOf(p.nativeRank());
            if (slot >= 0) {
                Role role = layout != null && layout.rep().contains(p.nativeRank()) ? Role.REP : Role.CMP;
                out.add(new FailedProcess(p.pid(), p.nativeRank(),
                        slot < logicalRanks ? slot : slot - logicalRanks, role, p.cause()));
            } else {
                readySpares.remove(p.nativeRank());
            }
        }
        return out == null ? failed : out;
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

package org.fthp.coordinator.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import io.netty.channel.EventLoopGroup;
import org.fthp.coordinator.checkpoint.CheckpointService;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.FailureLedger;
import org.fthp.coordinator.event.FailureSnapshot;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.spares.LocalSpares;
import org.fthp.coordinator.spares.RollbackPlanner;
import org.fthp.coordinator.spares.SdcRollback;
import org.fthp.coordinator.wire.Message;

/**
 * The job's verdicts, decided by the primary and passed up to it by every other node: failures become epochs
 * (FAILURE_SET, always the whole set, down the tree), a rank whose every copy failed becomes a ROLLBACK in place
 * when the planner (spares.RollbackPlanner) allows one, else, as a program that ended the job, the JOB_ABORT; a pid
 * no node owns ends the job; after a host loss the launcher hears when every process has finished or failed; once
 * the program has ended, the spares are released.
 */
final class FailureEpochs {
    private static final Logger LOG = Logger.getLogger(FailureEpochs.class.getName());

    /**
     * How long the survivors of a rollback and its spare have to be back in their resilient body before the job is
     * relaunched instead (a process that swallowed the rollback, or is stuck where the unwinding cannot reach).
     */
    static final Duration ROLLBACK_DEADLINE = Duration.ofSeconds(rollbackDeadlineSeconds());

    /** {@code FTHP_ROLLBACK_DEADLINE_SECONDS} from fthp-run's environment, else 30. */
    private static long rollbackDeadlineSeconds() {
        String v = System.getenv("FTHP_ROLLBACK_DEADLINE_SECONDS");
        try {
            return v == null || v.isBlank() ? 30 : Math.max(1, Long.parseLong(v.strip()));
        } catch (NumberFormatException e) {
            return 30;
        }
    }

    private final CoordinatorConfig config;
    private final NodeState state;
    private final EventLoopGroup ioGroup;
    private final TreeLinks links;
    private final CheckpointService checkpoints;
    /** A failure's INFO lines, written once the survivors have repaired. */
    private final DeferredLog failureLog;

    FailureEpochs(CoordinatorConfig config, NodeState state, EventLoopGroup ioGroup, TreeLinks links,
                  CheckpointService checkpoints, DeferredLog failureLog) {
        this.config = config;
        this.state = state;
        this.ioGroup = ioGroup;
        this.links = links;
        this.checkpoints = checkpoints;
        this.failureLog = failureLog;
    }

    /**
     * Runs once, at start-up, what a job's first failure set runs on its way down (the ledger, the set's
     * encoding, the dead ranks for the boards): a coordinator has no ahead-of-time cache, so that code would
     * otherwise be loaded and interpreted between the primary's decision and every survivor's news.
     */
    static void warmFailurePath() {
        FailedProcess nobody = new FailedProcess(0, 0, 0, Role.CMP, "warm-up");
        FailureSnapshot snapshot = new FailureLedger().record(List.of(nobody)).orElseThrow();
        newlyFailed(List.of(), snapshot.failed());
        NodeState.nativeRanksOf(snapshot.failed());
        io.netty.buffer.ByteBuf frame = io.netty.buffer.Unpooled.buffer(64);
        try {
            org.fthp.coordinator.wire.MessageCodec.encode(new Message.FailureSet(snapshot.epoch(), snapshot.failed()),
                    frame);
        } finally {
            frame.release();
        }
    }

    /** A batch of failures from below (or detected here): the primary records it, everyone else passes it up. */
    void failuresReported(List<FailedProcess> failed) {
        if (failed.isEmpty() || state.closed) {
            return;
        }
        synchronized (state.lock) {
            if (state.isPrimary() && state.abort != null) {
                // the job is over: these are its processes being ended, not failures to survive
                LOG.log(Level.FINE, "coordinator primary: {0} ended after the abort", failed);
                return;
            }
            if (state.isPrimary()) {
                failed = state.rollbacks().asHeld(failed, state.jobShape.logicalRanks());
                if (failed.isEmpty()) {
                    return;
                }
                int[] placed = state.nodeOfRank;
                for (FailedProcess f : failed) {
                    if (NodeCoordinator.HOST_LOST.equals(f.cause()) && placed != null
                            && f.nativeRank() < placed.length) {
                        // a leader lost this member: the member may not come back to the primary directly
                        state.lostNodes.add(placed[f.nativeRank()]);
                    }
                }
                // no method reference: its first use links a class on the way to the survivors
                Optional<FailureSnapshot> next = state.ledger.record(failed);
                if (next.isPresent()) {
                    publishNewEpoch(next.get());
                }
            } else {
                state.reportedUp.addAll(failed);
                links.sendUp(new Message.FailureReport(failed));
            }
        }
    }

    /** Primary only, under lock. */
    private void publishNewEpoch(FailureSnapshot snapshot) {
        List<FailedProcess> newlyFailed = newlyFailed(state.latest == null ? List.of() : state.latest.failed(),
                snapshot.failed());
        state.latest = snapshot;
        state.events.failuresDetected(snapshot.epoch(), newlyFailed);
        checkpoints.failuresSeen(newlyFailed.size());
        links.sendDown(new Message.FailureSet(snapshot.epoch(), snapshot.failed()));
        // after the survivors are told, and once they have repaired: a job's first line loads and formats its
        // message, CPU the survivors need for their repair on the same cores
        failureLog.info("publishNewEpoch", "coordinator primary: epoch {0}, {1} failed", snapshot.epoch(),
                snapshot.failed().size());
        RollbackPlanner planner = state.rollbacks();
        List<Integer> lost = state.jobShape.lostRanks(planner.counted(snapshot.failed()));
        // a process of the rollback under way that failed supersedes it, whether or not a rank lost every copy
        boolean rollbackFailed = planner.failsRollbackUnderWay(newlyFailed);
        RollbackPlanner.Decision decision = (lost.isEmpty() && !rollbackFailed) || state.abort != null ? null
                : planner.decide(lost, snapshot.epoch(), snapshot.failed(), state.jobShape,
                        checkpoints.lastCommitted(), checkpoints.highestEpochSeen(), System.nanoTime());
        if (decision instanceof RollbackPlanner.RollBack r) {
            if (rollbackFailed) {
                LOG.log(Level.INFO, "coordinator primary: a process of the rollback in place of generation {0}"
                        + " failed during it; the job rolls back again, without it (generation {1})",
                        new Object[] {r.message().generation() - 1, r.message().generation()});
            }
            startRollback(r.message());
        } else if (decision instanceof RollbackPlanner.Relaunch why) {
            // with spares the user expects a rollback in place: say why there is none
            String instead = planner.sparesSeen() ? " (no rollback in place: " + why.reason() + ")" : "";
            if (lost.isEmpty()) {
                Message.Rollback r = planner.underWay();
                abortJob("a process failed during the rollback in place of generation " + r.generation() + instead,
                        r.lostRank());
            } else if (lost.size() == 1) {
                abortJob("logical rank " + lost.get(0) + " lost all its copies" + instead, lost.get(0));
            } else {
                abortJob("logical ranks " + lost.stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")) + " lost all their copies" + instead, lost.get(0));
            }
        }
        releaseSparesIfEnded();
        sayIfProcessesEnded();
        links.restorationDueCheck();
    }

    /**
     * Primary, on the I/O thread: checkpoint {@code epoch} commits, before any process hears it. If a replica is due
     * to be restored from a spare, the job rolls back in place to this epoch with the spare as the replica; the
     * processes, waiting in that checkpoint for its commit, hear the rollback first.
     */
    void committing(long epoch) {
        synchronized (state.lock) {
            if (!state.isPrimary() || state.abort != null) {
                return;
            }
            List<FailedProcess> failed = state.latest == null ? List.of() : state.latest.failed();
            Message.Rollback r = state.restoration().atCommit(epoch, state.rollbacks(), failed, state.jobShape,
                    state.latest == null ? 0 : state.latest.epoch(), checkpoints.highestEpochSeen(),
                    System.nanoTime());
            if (r != null) {
                startRollback(r);
                links.restorationDueCheck();
            }
        }
    }

    /**
     * A copy found that its twin differs (or a child coordinator passed that up): the primary rolls the job back in
     * place to the last committed epoch when it can (spares.SdcRollback), else ends the job with the copy's reason and
     * exit code 6, as the copy would have (fthp-run then relaunches it or ends); everyone else passes it up.
     */
    void sdcDetected(Message.SdcDetected report) {
        synchronized (state.lock) {
            if (!state.isPrimary()) {
                links.sendUp(report);
                return;
            }
            if (state.abort != null) {
                return;
            }
            List<FailedProcess> failed = state.latest == null ? List.of() : state.latest.failed();
            RollbackPlanner.Decision decision = state.sdcRollback().decide(report, state.rollbacks(), failed,
                    state.jobShape, checkpoints.lastCommitted(), checkpoints.highestEpochSeen(),
                    state.latest == null ? 0 : state.latest.epoch(), System.nanoTime());
            if (decision instanceof RollbackPlanner.RollBack r) {
                state.events.sdcDetected(report.reason(), null);
                startRollback(r.message());
                links.restorationDueCheck();
            } else if (decision instanceof RollbackPlanner.Relaunch why) {
                state.events.sdcDetected(report.reason(), why.reason());
                abortJob(report.reason(), report.logicalRank(), SdcRollback.EXIT_SDC);
            }
        }
    }

    /**
     * Primary, under lock: every process and the chosen spare are told; the spare's node hands it the message. If
     * the processes are not all back in their bodies by {@link #ROLLBACK_DEADLINE}, the job is relaunched.
     */
    private void startRollback(Message.Rollback r) {
        // the processes first: a log line formats its message and writes it, time every process waits for it
        links.rollingBack(r);
        if (r.afterSdc()) {
            LOG.log(Level.INFO, "coordinator primary: the twins of logical rank {0} differ; the job rolls back in"
                    + " place to epoch {1} (generation {2})", new Object[] {r.lostRank(), r.epoch(), r.generation()});
        } else if (r.restoresReplica()) {
            LOG.log(Level.INFO, "coordinator primary: logical rank {0} lost its copy {1}; spare {2} becomes its"
                    + " replica, the job rolls back in place to epoch {3} (generation {4})",
                    new Object[] {r.lostRank(), r.deadNative(), r.spareNative(), r.epoch(), r.generation()});
        } else {
            LOG.log(Level.INFO, "coordinator primary: logical rank {0} lost all its copies; spare {1} takes it, the"
                    + " job rolls back in place to epoch {2} (generation {3})",
                    new Object[] {r.lostRank(), r.spareNative(), r.epoch(), r.generation()});
        }
        try {
            ioGroup.schedule(() -> rollbackDeadline(r), ROLLBACK_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    /** Primary, on the I/O thread: a rollback still under way at its deadline ends in a relaunch. */
    private void rollbackDeadline(Message.Rollback r) {
        synchronized (state.lock) {
            RollbackPlanner planner = state.rollbacksIfAny();
            if (planner == null || planner.underWay() != r || state.abort != null) {
                return;
            }
            List<Integer> lagging = planner.lagging(state.failedNativeRanks());
            String late = "native process(es) " + lagging + " did not reach Checkpoint.resilient within "
                    + ROLLBACK_DEADLINE.toSeconds() + " s";
            Message.SdcDetected sdc = state.sdcRollback().reportOf(r);
            if (sdc != null) {
                // as the copy would have ended it: fthp-run relaunches from the verified epoch, or ends with 6
                abortJob(sdc.reason() + " (the rollback in place did not complete: " + late + ")", r.lostRank(),
                        SdcRollback.EXIT_SDC);
                return;
            }
            abortJob(r.restoresReplica()
                    ? "the restoration of logical rank " + r.lostRank() + "'s replica did not complete: " + late
                    : "logical rank " + r.lostRank() + " lost all its copies (the rollback in place did not complete: "
                    + late + ")", r.lostRank());
        }
    }

    /** Primary, under lock: once every program process has finished or failed, the spares finalize too. */
    private void releaseSparesIfEnded() {
        if (!state.isPrimary() || state.spares.released() || !LocalSpares.programEnded(
                state.rollbacks().programNatives(), state.doneRanks, state.failedNativeRanks())) {
            return;
        }
        links.releaseSpares();
    }

    /** Those of {@code now} not in {@code before}; a plain loop, as NodeState#nativeRanksOf. */
    private static List<FailedProcess> newlyFailed(List<FailedProcess> before, List<FailedProcess> now) {
        List<FailedProcess> added = new ArrayList<>(now.size());
        for (FailedProcess f : now) {
            if (!before.contains(f)) {
                added.add(f);
            }
        }
        return List.copyOf(added);
    }

    /** Primary only, under lock: the first reason to end the job is sent down the tree; later ones are moot. */
    void abortJob(String reason, int lostRank) {
        abortJob(reason, lostRank, Message.JobAbort.NOT_A_PROGRAM_END);
    }

    private void abortJob(String reason, int lostRank, int exitCode) {
        if (state.abort != null) {
            return;
        }
        state.abort = new Message.JobAbort(reason, lostRank, exitCode);
        // recorded before anyone is told, so the event log and the launcher never lag what processes see
        if (state.abort.programEnded()) {
            LOG.log(Level.FINE, "coordinator primary: {0}; ending the job with exit code {1}",
                    new Object[] {reason, exitCode});
            state.events.programEnded(reason, lostRank, exitCode);
        } else {
            LOG.log(Level.SEVERE, "coordinator primary: {0}; aborting the job", reason);
            state.events.jobAborted(reason, lostRank);
        }
        links.sendDown(state.abort);
    }

    /**
     * A process's program ended the job, or a child coordinator passed such an end up: the primary ends the job with
     * the program's exit code, the first such end (or lost rank) wins; everyone else passes it up. A program's own
     * verdict is never repaired: every copy runs the same code, so a replica would only end the same way.
     */
    void programEnded(Message.ProgramEnded end) {
        synchronized (state.lock) {
            if (state.isPrimary()) {
                abortJob(end.reason(), end.logicalRank(), end.exitCode());
            } else {
                links.sendUp(end);
            }
        }
    }

    /** Native ranks that finished normally: recorded here, and passed up to the primary. */
    void processesDone(List<Integer> nativeRanks) {
        synchronized (state.lock) {
            state.doneRanks.addAll(nativeRanks);
            if (state.isPrimary()) {
                releaseSparesIfEnded();
                sayIfProcessesEnded();
            } else {
                links.sendUp(new Message.ProcessesDone(nativeRanks));
            }
        }
    }

    /**
     * Node {@code claimingNode} says a reported pid never registered with it: the primary counts the claim (and
     * ends the job when every node has made it), everyone else passes it up.
     */
    void unownedPidReported(long pid, int claimingNode) {
        if (state.closed) {
            return;
        }
        synchronized (state.lock) {
            if (state.unownedVotes == null) {
                links.sendUp(new Message.UnownedPid(pid, claimingNode));
            } else if (claimingNode >= config.layout().nodeCount()) {
                LOG.log(Level.WARNING, "coordinator primary: ignoring an unowned-pid claim from unknown node {0}",
                        claimingNode);
            } else if (state.unownedVotes.vote(pid, claimingNode)) {
                abortJob("a process (pid " + pid + ") died before it registered with the coordinators;"
                        + " the job cannot continue", Message.JobAbort.NO_RANK);
            }
        }
    }

    /**
     * Primary, under lock: once a host was lost and every process has finished or failed, the job is over; the
     * native launcher (Open MPI's mpirun) still waits for the lost host's processes, which nothing will ever report
     * ended, so the launcher is told that it may end it.
     */
    private void sayIfProcessesEnded() {
        int[] placed = state.nodeOfRank;
        if (!state.hostLost || state.processesEndedSaid || placed == null || state.abort != null) {
            return;
        }
        Set<Integer> failed = state.failedNativeRanks();
        // the program's processes: a waiting spare finalizes once they have, and one on a lost host never reports
        for (int rank : state.rollbacks().programNatives()) {
            if (!state.doneRanks.contains(rank) && !failed.contains(rank)) {
                return;
            }
        }
        state.processesEndedSaid = true;
        LOG.log(Level.INFO, "coordinator primary: every process has finished or failed after a host was lost");
        state.events.processesEnded();
    }
}

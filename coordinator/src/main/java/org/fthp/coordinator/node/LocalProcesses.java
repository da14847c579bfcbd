package org.fthp.coordinator.node;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import org.fthp.coordinator.checkpoint.CheckpointService;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.liveness.LifeLock;
import org.fthp.coordinator.wire.Message;

/**
 * The processes registered with this node, and their deaths as its three detectors see them: the lost connection,
 * the launcher's proxy report of a pid, the life lock (liveness.LifeLock). Whichever comes first fails the process;
 * the others then find it gone. A reported pid that never registered here is claimed unowned to the primary after
 * {@link NodeCoordinator#REPORT_GRACE}.
 */
final class LocalProcesses {
    private static final Logger LOG = Logger.getLogger(LocalProcesses.class.getName());

    private final CoordinatorConfig config;
    private final NodeState state;
    private final EventLoopGroup ioGroup;
    private final TreeLinks links;
    private final FailureEpochs epochs;
    private final CheckpointService checkpoints;
    /** A failure's INFO lines, written once the survivors have repaired. */
    private final DeferredLog failureLog;

    LocalProcesses(CoordinatorConfig config, NodeState state, EventLoopGroup ioGroup, TreeLinks links,
                   FailureEpochs epochs, CheckpointService checkpoints, DeferredLog failureLog) {
        this.config = config;
        this.state = state;
        this.ioGroup = ioGroup;
        this.links = links;
        this.epochs = epochs;
        this.checkpoints = checkpoints;
        this.failureLog = failureLog;
    }

    private int nodeId() {
        return config.nodeId();
    }

    void registered(Channel channel, LocalProcess process) {
        if (process.role() == Role.SPARE) {
            spareRegistered(channel, process);
            return;
        }
        boolean alreadyReportedDead;
        synchronized (state.lock) {
            state.liveProcesses.put(channel, process);
            state.registeredPids.add(process.pid());
            alreadyReportedDead = state.unclaimedPids.remove(process.pid());
            channel.write(new Message.Registered(nodeId()));
            checkpoints.catchUp(channel);
            links.catchUp(channel);
        }
        checkpoints.processRegistered();
        state.registrations.accept(process.nativeRank());
        LOG.log(Level.FINE, "coordinator node {0}: registered {1}", new Object[] {nodeId(), process});
        if (alreadyReportedDead) {
            reportFailedPid(process.pid(), NodeCoordinator.PROXY_REPORT, false);
            return;
        }
        // the fastest of the three detectors: the others wait until the kernel has freed the process's memory
        LifeLock.Board board = LifeLock.watch(LifeLock.pathFor(config.secret(), process.nativeRank(), process.pid()),
                () -> lifeLockLost(channel, process.pid()), () -> boardGone(channel),
                "fthp-life-watch-" + process.nativeRank());
        if (board != null) {
            synchronized (state.lock) {
                if (state.liveProcesses.containsKey(channel)) {
                    state.boards.put(channel, board);
                    if (state.latest != null) {
                        board.post(state.latest.epoch(), NodeState.nativeRanksOf(state.latest.failed()));
                    }
                }
            }
        }
    }

    /** A spare: owned here (its pid is no stranger), told nothing but its release; its loss is no failure. */
    private void spareRegistered(Channel channel, LocalProcess spare) {
        synchronized (state.lock) {
            state.registeredPids.add(spare.pid());
            state.unclaimedPids.remove(spare.pid());
            channel.writeAndFlush(new Message.Registered(nodeId()));
            state.spares.registered(channel, spare.nativeRank(), spare.pid());
        }
        links.toPrimary(new Message.ProcessState(spare.nativeRank(), Message.ProcessState.State.SPARE_READY, 0));
        LOG.log(Level.FINE, "coordinator node {0}: registered {1}", new Object[] {nodeId(), spare});
    }

    private void boardGone(Channel channel) {
        synchronized (state.lock) {
            state.boards.remove(channel);
        }
    }

    /** A registered process died holding its life lock: a failure, unless its program had ended the job. */
    private void lifeLockLost(Channel channel, long pid) {
        synchronized (state.lock) {
            if (state.closed || state.endedProcesses.contains(channel)) {
                return;
            }
        }
        // decided on this thread, not handed to the I/O thread: the failure boards are written at once (the
        // connections' writes still go through the I/O thread, in the order they are made)
        reportFailedPid(pid, NodeCoordinator.LIFE_LOCK, true);
    }

    /** The process said PROCESS_DONE: it finished normally. */
    void done(Channel channel) {
        synchronized (state.lock) {
            if (state.spares.gone(channel) != null || state.spares.took(channel)) {
                return;
            }
            LocalProcess done = state.liveProcesses.remove(channel);
            if (done != null) {
                epochs.processesDone(List.of(done.nativeRank()));
            }
        }
    }

    /** Its program ended the job: its connection's end, coming next, is no failure. */
    void programEnded(Channel channel, Message.ProgramEnded end) {
        synchronized (state.lock) {
            state.endedProcesses.add(channel);
            epochs.programEnded(end);
        }
    }

    void connectionLost(Channel channel) {
        LocalProcess process;
        boolean teardown;
        FailedProcess tookRank;
        synchronized (state.lock) {
            Integer spare = state.spares.gone(channel);
            if (spare != null) {
                LOG.log(Level.INFO, "coordinator node {0}: spare {1} is gone", new Object[] {nodeId(), spare});
                links.toPrimary(new Message.ProcessState(spare, Message.ProcessState.State.SPARE_GONE, 0));
                return;
            }
            tookRank = state.closed || state.abort != null ? null
                    : state.spares.diedTaking(channel, NodeCoordinator.CONNECTION_LOST);
        }
        if (tookRank != null) {
            // a spare a rollback named died before it registered as the rank's copy: that rank's failure, else the
            // rollback would wait for it until its deadline
            epochs.failuresReported(List.of(tookRank));
            failureLog.info("connectionLost", "coordinator node {0}: lost spare {1} taking rank {2}", nodeId(),
                    tookRank.nativeRank(), tookRank.logicalRank());
            return;
        }
        synchronized (state.lock) {
            process = state.liveProcesses.remove(channel);
            if (state.endedProcesses.remove(channel)) {
                return;   // it ended the job itself: the end of its connection is that, not a failure
            }
            teardown = state.abort != null;
        }
        if (process != null && !state.closed) {
            // reported first: the line can cost tens of milliseconds (the first INFO of the job)
            epochs.failuresReported(List.of(process.failed(NodeCoordinator.CONNECTION_LOST)));
            // after the job's end these are its processes going, worth no more than a debug line
            if (teardown) {
                LOG.log(Level.FINE, "coordinator node {0}: lost {1}", new Object[] {nodeId(), process});
            } else {
                failureLog.info("connectionLost", "coordinator node {0}: lost {1}", nodeId(), process);
            }
        }
    }

    /**
     * A pid the launcher's proxy reported killed by a signal: if it registered here, it fails as a lost connection
     * would (or is ignored when it already finished or failed); any other pid is remembered for the grace and then
     * claimed unowned (NodeCoordinator#pidReported).
     */
    void pidReported(long pid) {
        synchronized (state.lock) {
            if (state.closed || state.retiredPids.contains(pid)) {
                return;
            }
            if (!state.registeredPids.contains(pid)) {
                if (state.unclaimedPids.add(pid)) {
                    try {
                        ioGroup.schedule(() -> graceOver(pid), NodeCoordinator.REPORT_GRACE.toMillis(),
                                TimeUnit.MILLISECONDS);
                    } catch (RejectedExecutionException e) {
                        // shutting down: nothing left to decide
                    }
                }
                return;
            }
        }
        reportFailedPid(pid, NodeCoordinator.PROXY_REPORT, false);
    }

    /** On the I/O thread, the grace after a report of a pid that had not registered here. */
    private void graceOver(long pid) {
        synchronized (state.lock) {
            if (!state.unclaimedPids.remove(pid) || state.closed) {
                return;   // it registered meanwhile and was failed then
            }
        }
        LOG.log(Level.INFO, "coordinator node {0}: reported pid {1} did not register here",
                new Object[] {nodeId(), Long.toString(pid)});
        epochs.unownedPidReported(pid, nodeId());
    }

    /**
     * Fails the live process registered with {@code pid}, on this thread or handed to the I/O thread; false if no
     * live process with that pid is registered here (already reported, finished or unknown).
     */
    boolean reportFailedPid(long pid, String cause, boolean onThisThread) {
        FailedProcess failed = null;
        Channel channel = null;
        synchronized (state.lock) {
            for (Map.Entry<Channel, LocalProcess> e : state.liveProcesses.entrySet()) {
                if (e.getValue().pid() == pid) {
                    channel = e.getKey();
                    failed = e.getValue().failed(cause);
                    break;
                }
            }
            if (channel != null) {
                state.liveProcesses.remove(channel);
            }
        }
        if (failed == null) {
            // the usual case when the lost connection came first: the same death, already handled
            LOG.log(Level.FINE, "coordinator node {0}: reported pid {1} is not a live registered process",
                    new Object[] {nodeId(), Long.toString(pid)});
            return false;
        }
        List<FailedProcess> batch = List.of(failed);
        if (onThisThread) {
            epochs.failuresReported(batch);
        } else {
            reportOnIoThread(batch);
        }
        // after the survivors are told: closed first, the I/O thread would run the connection's end (under the
        // lock) just as this thread needed the lock to publish the set and that thread to write it
        channel.close();
        return true;
    }

    /** Reports {@code batch} on the I/O thread (warmed at start-up with an empty one). */
    void reportOnIoThread(List<FailedProcess> batch) {
        ioGroup.execute(() -> epochs.failuresReported(batch));
    }

    /**
     * SIGKILLs the live process registered here as native rank {@code nativeRank}, found by the pid it registered
     * with (this host's pid); returns that pid. Its death is then detected as any other.
     */
    OptionalLong kill(int nativeRank) {
        long pid = -1;
        synchronized (state.lock) {
            for (LocalProcess p : state.liveProcesses.values()) {
                if (p.nativeRank() == nativeRank) {
                    pid = p.pid();
                    break;
                }
            }
        }
        if (pid <= 0) {
            return OptionalLong.empty();
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().destroyForcibly()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(pid);
    }

    /**
     * Ends this host's part of the job once this node has lost its parent: the rest of the job has taken or will
     * take this host for lost (the parent fails every process placed here, as one batch), and the copies elsewhere
     * carry on. Left running, these processes would be half-alive: computing but unheard, and after the network
     * mends able to send stale MPI messages and output into a job that has repaired without them. So every live
     * process registered here is SIGKILLed (by the pid it registered with) and forgotten: its end is no failure to
     * report, there is nobody left to report to. Returns how many.
     *
     * <p>The native launcher's daemon of this host (Open MPI's orted) is left alone: ended, it would reach mpirun
     * as a daemon that failed to start, which ends the whole job ("ORTE was unable to reliably start one or more
     * daemons" once the network came back to it). With no ranks left it only waits; the launcher ends it with
     * mpirun, or it ends when its connection to mpirun does.
     */
    int endAll() {
        List<Long> pids;
        synchronized (state.lock) {
            pids = state.liveProcesses.values().stream().map(LocalProcess::pid).toList();
            state.liveProcesses.clear();
        }
        int ended = 0;
        for (long pid : pids) {
            Optional<ProcessHandle> p = ProcessHandle.of(pid);
            if (p.isPresent() && p.get().destroyForcibly()) {
                ended++;
            }
        }
        return ended;
    }
}

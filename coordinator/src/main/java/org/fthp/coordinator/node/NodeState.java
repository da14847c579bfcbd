package org.fthp.coordinator.node;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

import io.netty.channel.Channel;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.FailureLedger;
import org.fthp.coordinator.event.FailureSnapshot;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.liveness.LifeLock;
import org.fthp.coordinator.spares.LocalSpares;
import org.fthp.coordinator.spares.ReplicaRestoration;
import org.fthp.coordinator.spares.RollbackPlanner;
import org.fthp.coordinator.spares.SdcRollback;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * What one node coordinator knows of the job, read and changed by each of its parts (registration, failure epochs,
 * the tree's links, host loss). Every field without {@code volatile} is guarded by {@link #lock}: the I/O thread
 * changes most of it, the life-lock watchers, the proxy's report reader and the launcher's calls read and change
 * the rest.
 */
final class NodeState {
    final Object lock = new Object();

    /** Processes that are registered, not finished and not known dead: the ones that receive failure sets. */
    final Map<Channel, LocalProcess> liveProcesses = new HashMap<>();
    /** The failure board of each live process that holds a life lock (liveness.LifeLock): failure sets go there too. */
    final Map<Channel, LifeLock.Board> boards = new HashMap<>();
    /** Live processes whose program ended the job: they still hear the abort, and their disconnect is no failure. */
    final Set<Channel> endedProcesses = new HashSet<>();
    /** Child coordinators' connections, with the node id each registered as. */
    final Map<Channel, Integer> children = new LinkedHashMap<>();
    /** Native ranks that finished normally here or below (PROCESS_DONE, PROCESSES_DONE): never failed with a host. */
    final Set<Integer> doneRanks = new HashSet<>();
    /** Every pid that ever registered here, finished or failed included: the pids this node owns. */
    final Set<Long> registeredPids = new HashSet<>();
    /** Reported pids not (yet) registered here, each waiting out {@link NodeCoordinator#REPORT_GRACE}. */
    final Set<Long> unclaimedPids = new HashSet<>();
    /** Pids of processes of an incarnation that ended (a restart): late reports about them are not failures. */
    final Set<Long> retiredPids = new HashSet<>();
    /** Reports (failures, unowned pids) made before the uplink is registered; sent as soon as it is. */
    final List<Message> unsentUpward = new ArrayList<>();
    /** Non-primary: every failure this node passed up (sent again to a new parent: what the lost one had not). */
    final List<FailedProcess> reportedUp = new ArrayList<>();
    /**
     * Primary: nodes registered directly with it although their layout parent is a group leader, because they lost
     * that leader (adopted); their processes are theirs alone, not the leader's, when the leader is lost.
     */
    final Set<Integer> adopted = new HashSet<>();
    /** Primary: nodes whose processes were failed with their host; such a node may not register again. */
    final Set<Integer> lostNodes = new HashSet<>();
    /** This node's waiting spares (fthp-run --spares): apart from the program's processes. */
    final LocalSpares spares = new LocalSpares();

    Channel uplink;
    /** The node this one is registered with, or -1. */
    int parentNode = -1;
    /** Only the primary owns the job-wide set; other nodes just remember the latest snapshot they were sent. */
    FailureLedger ledger;
    UnownedPidVotes unownedVotes;
    FailureSnapshot latest;
    Message.JobAbort abort;
    /**
     * The newest rollback in place sent down from here, or null: a process that registers during a rollback (the
     * spare that takes the lost rank) hears it, or the one that superseded it, as it registers.
     */
    Message.Rollback lastRollback;
    /** Primary: what a rollback in place needs, and its decisions; made at first use, dropped at a new incarnation. */
    private RollbackPlanner rollbacks;
    /** Primary: lost replicas restored from spares; made at first use, dropped at a new incarnation. */
    private ReplicaRestoration restoration;
    /** Primary: rollbacks in place after a difference between twins; made at first use, dropped at a new incarnation. */
    private SdcRollback sdcRollback;
    /** What this node last heard from the primary: a replica is due to be restored (told to late registrations). */
    boolean restorationDue;
    /** Primary: a host was lost, so the native launcher may wait for ever for processes it can no longer see. */
    boolean hostLost;
    boolean processesEndedSaid;

    /**
     * How many node coordinators receive each proxy report: every node when they share one host (fthp-run hands
     * the proxy all their pipes), one when each host's reports reach only that host's coordinator.
     */
    volatile int unownedVoters;
    /**
     * The node each native rank registers with (fthp-run's placement on several hosts), or null when unknown (one
     * host): what a lost child coordinator takes down with it.
     */
    volatile int[] nodeOfRank;
    /** N and M; M changes when the job restarts with another replication degree. */
    volatile JobShape jobShape;
    /** Every node's address, for the checkpoint data links (known once the hierarchy is wired). */
    volatile List<NodeAddress> addresses;
    /** From now on lost connections are the shutdown, not failures. */
    volatile boolean closed;
    /** Where the primary reports detected failures and aborts (the event log, the launcher). */
    volatile JobEvents events = JobEvents.NONE;
    volatile Runnable parentLost = () -> { };
    /** Told the native rank of each process that registers here (fthp-run counts them before timed kills). */
    volatile IntConsumer registrations = rank -> { };
    /** fthp-run's --restore-replicas. */
    private final boolean restoreReplicas;

    NodeState(CoordinatorConfig config) {
        this.ledger = config.isPrimary() ? new FailureLedger() : null;
        // On one host fthp-run hands every node coordinator's pipe to the proxy, so every node votes.
        this.unownedVoters = config.layout().nodeCount();
        this.unownedVotes = config.isPrimary() ? new UnownedPidVotes(unownedVoters) : null;
        this.jobShape = config.jobShape();
        this.addresses = config.nodes();
        this.restoreReplicas = config.checkpoint().restoreReplicas();
    }

    boolean isPrimary() {
        return ledger != null;
    }

    /** Primary, under lock: the planner of rollbacks in place for this incarnation. */
    RollbackPlanner rollbacks() {
        if (rollbacks == null) {
            rollbacks = new RollbackPlanner(jobShape.logicalRanks() + jobShape.replicated(), nodeOfRank);
        }
        return rollbacks;
    }

    /** Primary, under lock: the restoration of lost replicas from spares for this incarnation. */
    ReplicaRestoration restoration() {
        if (restoration == null) {
            restoration = new ReplicaRestoration(restoreReplicas);
        }
        return restoration;
    }

    /** Primary, under lock: the rollbacks in place after differences between twins, for this incarnation. */
    SdcRollback sdcRollback() {
        if (sdcRollback == null) {
            sdcRollback = new SdcRollback();
        }
        return sdcRollback;
    }

    /** Under lock: the planner if this incarnation has one yet, else null. */
    RollbackPlanner rollbacksIfAny() {
        return rollbacks;
    }

    /** Under lock: the native ranks in the latest failure set this node knows. */
    Set<Integer> failedNativeRanks() {
        return latest == null ? Set.of()
                : latest.failed().stream().map(FailedProcess::nativeRank).collect(Collectors.toSet());
    }

    /** Plain loop, no stream: runs on every failure set's way down (warmed at start-up). */
    static int[] nativeRanksOf(List<FailedProcess> failed) {
        int[] ranks = new int[failed.size()];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = failed.get(i).nativeRank();
        }
        return ranks;
    }

    /**
     * A new incarnation of the job: the failure state starts afresh, the processes of the old one are forgotten and
     * late reports of their deaths ignored. Under lock.
     */
    void newIncarnation(JobShape shape) {
        liveProcesses.clear();
        boards.clear();
        endedProcesses.clear();
        retiredPids.addAll(registeredPids);
        registeredPids.clear();
        unclaimedPids.clear();
        latest = null;
        abort = null;
        lastRollback = null;
        doneRanks.clear();
        reportedUp.clear();
        lostNodes.clear();
        hostLost = false;
        processesEndedSaid = false;
        jobShape = shape;
        spares.reset();
        rollbacks = null;
        restoration = null;
        sdcRollback = null;
        restorationDue = false;
        if (ledger != null) {
            ledger = new FailureLedger();
            unownedVotes = new UnownedPidVotes(unownedVoters);
        }
    }
}

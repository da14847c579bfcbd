package org.fthp.coordinator.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.checkpoint.CheckpointConfig;
import org.fthp.coordinator.checkpoint.IntervalPolicy;
import org.fthp.coordinator.event.EventLog;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.Heartbeats;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * A node coordinator as its own process, the form {@code fthp-run} will start (one per emulated node with
 * {@code --nodes K}, one per host on a real cluster).
 *
 * <pre>
 * FTHP_JOB_SECRET=&lt;hex&gt; java ... org.fthp.coordinator.node.CoordinatorMain \
 *     --node-id I --nodes h0:p0,h1:p1,... --group-size G --ranks N --replicas M [--bind HOST] [--events FILE]
 *     [--checkpoint-memory BYTES] [--checkpoint-dir DIR] [--checkpoint-disk-every K]
 *     [--checkpoint-interval S|auto|none] [--mtbf-per-process S] [--checkpoint-job TOKEN]
 * </pre>
 * Every node gets the same {@code --nodes} list and listens on the port its own entry names; {@code --bind}
 * defaults to loopback and must name an interface the other hosts can reach on a multi-host run. The secret is
 * read from the environment only. Creates its proxy report pipe ({@link ProxyReportPipe}), prints one
 * {@code FTHP_COORDINATOR_READY node=I address=host:port reports=/path/to/fifo} line on stdout once listening,
 * then connects to its parent, retrying while the parent is still starting. The primary appends detected failures
 * and aborts to {@code --events} (JSON lines) and prints one {@code FTHP_JOB_ABORT [rank=R] reason=...} line on
 * stdout when the job must end, for the launcher ({@code rank=} is left out when the process that ended it died
 * before it registered).
 *
 * <p>Checkpoints: the primary prints {@code FTHP_CHECKPOINT_COMMITTED epoch=E bytes=B cost=S} (cost {@code -} when
 * unknown), {@code FTHP_CHECKPOINT_INTERVAL seconds=S basis=...} and {@code FTHP_CHECKPOINT_ON_DISK epoch=E}; every
 * node prints {@code FTHP_CHECKPOINT_MEMORY node=I held=B peak=B limit=B} after each commit.
 *
 * <p>Standard input is the launcher's control channel: a line {@code new-incarnation replicas=M} starts a new
 * incarnation of the job ({@link NodeCoordinator#newIncarnation}) and is answered with
 * {@code FTHP_COORDINATOR_RESET node=I committed=E seen=S}; once every node has answered, {@code
 * settle-checkpoints committed=E first=F} settles the checkpoints the restart reads and writes
 * ({@link NodeCoordinator#settleCheckpoints}), answered with {@code FTHP_COORDINATOR_SETTLED node=I}. With
 * {@code --lifeline stdin} (fthp-run on one host) the end of input ends the coordinator: the launcher is gone;
 * without it, end of input changes nothing. {@code checkpoint-now} (the launcher was told to stop) makes a
 * checkpoint due at the ranks' next snapshot on the primary, answered with {@code FTHP_CHECKPOINT_REQUESTED
 * node=I}. {@code --checkpoint-job} is the program the directory's manifests record
 * ({@link org.fthp.checkpoint.store.JobIdentity#token}).
 *
 * <p>Several hosts ({@code fthp-run --host/--hostfile}): {@code --nodes stdin --node-count K --bind ADDR}: the
 * node binds an ephemeral port on its host's address, and its first control line is {@code nodes
 * host:port,...} (every node's READY address, which fthp-run collects); stdin is then its lifeline too (end of
 * input ends the coordinator: a remote agent such as ssh does not kill the remote command when its local end is
 * killed). {@code --report-dir DIR}: the proxy report FIFO is {@code DIR/proxy-report.HOSTNAME}, where the launch
 * agent of this host's orted (scripts/fthp-orted.sh) writes, and since each host's reports reach only its own
 * coordinator one "not mine" is enough for an unowned pid. {@code --coordinator-of 0,0,1,1} (node of each native
 * rank): a lost child coordinator fails every unfinished process placed on it (and below it) at once; the primary
 * prints {@code FTHP_HOST_LOST node=K processes=P native=R,...} then, once every process has finished or failed,
 * {@code FTHP_JOB_PROCESSES_ENDED} (the native launcher still waits for the lost host's processes). The control
 * line {@code collect-stats} is answered with the ranks' statistics files of this host ({@link #collectStats});
 * {@code kill native=R} SIGKILLs the live process registered here as native rank R (fthp-run's timed kills),
 * answered with {@code FTHP_KILLED native=R pid=P} ({@code pid=-}: none); and with {@code --report-dir} each
 * registration is told as {@code FTHP_PROCESS_REGISTERED node=I native=R}.
 *
 * <p>Heartbeats ({@code --heartbeats MILLISxMISSES|off}; default {@link Heartbeats#DEFAULT} with {@code --nodes stdin},
 * off with a fixed node list, i.e. one host): a child and its parent each send a HEARTBEAT every interval, and a link
 * silent for MISSES intervals is lost as if its connection had closed. With {@code --report-dir}, a node that loses
 * its parent ends its host's processes and exits ({@link #fence}).
 */
public final class CoordinatorMain {
    private static final Duration PARENT_WAIT = Duration.ofSeconds(30);
    /** Longer than one try at the parent takes when it answers at all. */
    private static final Duration ATTEMPT_WAIT = Duration.ofSeconds(5);
    /** {@code --nodes stdin}: the node list comes on the control channel once every node is listening. */
    static final String NODES_FROM_STDIN = "stdin";
    /** How long the shutdown after the lifeline's end may take before the process halts. */
    private static final long LIFELINE_EXIT_MILLIS = 5_000;

    private CoordinatorMain() {
    }

    public static void main(String[] args) throws Exception {
        CoordinatorLog.install(System.err);
        CoordinatorConfig config;
        try {
            config = parse(args, JobSecret.fromEnvironment());
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("fthp-coordinator: " + e.getMessage());
            System.exit(2);
            return;
        }
        NodeCoordinator node;
        try {
            node = new NodeCoordinator(config);
        } catch (IllegalArgumentException e) {
            System.err.println("fthp-coordinator: " + e.getMessage());
            System.exit(2);
            return;
        }
        String eventsFile = eventsFile(args);
        node.setJobEvents(new LauncherEvents(config.isPrimary() && eventsFile != null
                ? new EventLog(Path.of(eventsFile)) : null));
        String reportDir = option(args, "--report-dir");
        if (reportDir != null) {
            node.reportsArePerHost();
            // several hosts: fthp-run counts the registrations before its timed kills start their clock
            node.onProcessRegistered(rank -> say("FTHP_PROCESS_REGISTERED node=" + config.nodeId() + " native="
                    + rank));
        }
        if (reportDir != null) {
            // several hosts: a node that lost its parent is cut off from the job, which fails its processes
            node.onParentLost(() -> fence(node));
        }
        String placed = option(args, "--coordinator-of");
        if (placed != null) {
            try {
                node.ranksPlaced(parsePlacement(placed));
            } catch (IllegalArgumentException e) {
                System.err.println("fthp-coordinator: --coordinator-of: " + e.getMessage());
                System.exit(2);
                return;
            }
        }
        NodeAddress bound = node.start();
        ProxyReportPipe reports = reportDir == null
                ? ProxyReportPipe.open(node::pidReported, "fthp-proxy-reports-" + config.nodeId())
                : ProxyReportPipe.openAt(Path.of(reportDir), REPORT_PREFIX + hostName(), node::pidReported,
                        "fthp-proxy-reports-" + config.nodeId());
        System.out.println("FTHP_COORDINATOR_READY node=" + config.nodeId() + " address=" + bound
                + " reports=" + reports.path());
        System.out.flush();
        java.io.BufferedReader control = new java.io.BufferedReader(
                new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
        // several hosts always; one host when the launcher asks (--lifeline stdin): a launcher killed by its batch
        // system or the user must not leave coordinators holding checkpoint memory behind
        boolean lifeline = config.nodes().isEmpty() || "stdin".equals(option(args, "--lifeline"));
        boolean nodesOnStdin = config.nodes().isEmpty();
        List<NodeAddress> nodes = null;
        if (nodesOnStdin) {
            nodes = nodesFromControl(control, config.layout().nodeCount());
            if (nodes == null) {
                System.exit(0);   // the launcher went away before the job started
            }
        }
        // registered before the lifeline is read: an end of input while connecting removes the report pipe too
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            reports.close();
            node.close();
            stop.countDown();
        }, "fthp-coordinator-shutdown"));
        // the control channel, and with it the lifeline, is read from here on, while connecting too: a parent
        // that takes long to reach must not keep a coordinator alive after its launcher has gone
        Thread controlThread = new Thread(() -> {
            readControl(control, node, config, reportDir);
            if (lifeline) {
                // the launcher (or the remote agent that carried its pipe) is gone: so is the job. Nothing may
                // keep a coordinator alive on a remote host after that, so a shutdown that takes too long is cut
                // short. This thread starts before connecting to the parent, so a coordinator still connecting
                // when its stdin ends goes too.
                java.util.concurrent.CompletableFuture.delayedExecutor(LIFELINE_EXIT_MILLIS, TimeUnit.MILLISECONDS,
                        Runnable::run)
                        .execute(() -> Runtime.getRuntime().halt(0));
                System.exit(0);
            }
        }, "fthp-coordinator-control");
        controlThread.setDaemon(true);
        controlThread.start();
        if (nodesOnStdin) {
            connectWithRetry(node, nodes);
        } else {
            connectWithRetry(node);
        }
        stop.await();
    }

    /** Exit status of a coordinator that ended its host's part of the job after losing its parent. */
    static final int EXIT_FENCED = 3;

    /**
     * The parent is lost (its connection closed, or silent for the heartbeats' timeout): the rest of the job takes
     * this host for lost, so its processes are ended ({@link NodeCoordinator#endLocalProcesses}) and so is this
     * coordinator, with {@code FTHP_COORDINATOR_FENCED node=I processes=P} on stdout (it reaches fthp-run when the
     * remote agent's connection still carries it). Off the I/O thread, which the shutdown needs.
     */
    private static void fence(NodeCoordinator node) {
        Thread t = new Thread(() -> {
            int ended = node.endLocalProcesses();
            say("FTHP_COORDINATOR_FENCED node=" + node.nodeId() + " processes=" + ended);
            System.err.println("fthp-coordinator: node " + node.nodeId() + " lost its parent coordinator: ended this"
                    + " host's " + ended + " process(es) of the job and exits");
            System.exit(EXIT_FENCED);
        }, "fthp-coordinator-fence");
        t.start();
    }

    /** Name of the proxy report FIFO in {@code --report-dir}: the launch agent (scripts/fthp-orted.sh) adds the host. */
    static final String REPORT_PREFIX = "proxy-report.";

    /** This host's name as {@code hostname} prints it (the launch agent names the report FIFO with it). */
    static String hostName() throws java.io.IOException {
        Path kernel = Path.of("/proc/sys/kernel/hostname");
        if (java.nio.file.Files.isReadable(kernel)) {
            return java.nio.file.Files.readString(kernel).strip();
        }
        return java.net.InetAddress.getLocalHost().getHostName();
    }

    /**
     * {@code --nodes stdin}: the launcher cannot know the ports before every coordinator has bound one, so it
     * sends {@code nodes host:port,...} (every node's READY address) as the first control line; null on end of
     * input.
     */
    static List<NodeAddress> nodesFromControl(java.io.BufferedReader in, int count) throws java.io.IOException {
        String line = in.readLine();
        if (line == null) {
            return null;
        }
        line = line.strip();
        if (!line.startsWith("nodes ")) {
            throw new IllegalStateException("expected 'nodes host:port,...' as the first control line, got '"
                    + line + "'");
        }
        List<NodeAddress> nodes = new ArrayList<>();
        for (String entry : line.substring("nodes ".length()).strip().split(",")) {
            nodes.add(NodeAddress.parse(entry.strip()));
        }
        if (nodes.size() != count) {
            throw new IllegalStateException("the node list names " + nodes.size() + " nodes, not " + count);
        }
        return nodes;
    }

    /** Launcher commands on stdin, one per line, until end of input. */
    private static void readControl(java.io.BufferedReader in, NodeCoordinator node, CoordinatorConfig config,
                                    String reportDir) {
        try (in) {
            String line;
            while ((line = in.readLine()) != null) {
                line = line.strip();
                if (line.startsWith("new-incarnation")) {
                    int replicas = node.jobShape().replicated();
                    for (String word : line.split(" ")) {
                        if (word.startsWith("replicas=")) {
                            replicas = Integer.parseInt(word.substring("replicas=".length()));
                        }
                    }
                    NodeCoordinator.CheckpointState state =
                            node.newIncarnation(new JobShape(node.jobShape().logicalRanks(), replicas));
                    System.out.println("FTHP_COORDINATOR_RESET node=" + config.nodeId() + " committed="
                            + state.lastCommitted() + " seen=" + state.highestEpochSeen());
                    System.out.flush();
                } else if (line.startsWith("settle-checkpoints")) {
                    long committed = -1;
                    long first = 1;
                    for (String word : line.split(" ")) {
                        if (word.startsWith("committed=")) {
                            committed = Long.parseLong(word.substring("committed=".length()));
                        } else if (word.startsWith("first=")) {
                            first = Long.parseLong(word.substring("first=".length()));
                        }
                    }
                    node.settleCheckpoints(committed, first);
                    System.out.println("FTHP_COORDINATOR_SETTLED node=" + config.nodeId());
                    System.out.flush();
                } else if (line.startsWith("kill native=")) {
                    String rank = line.substring("kill native=".length()).strip();
                    java.util.OptionalLong pid = rank.matches("\\d{1,9}")
                            ? node.killRegistered(Integer.parseInt(rank)) : java.util.OptionalLong.empty();
                    say("FTHP_KILLED native=" + rank + " pid=" + (pid.isPresent() ? pid.getAsLong() : "-"));
                } else if (line.equals("checkpoint-now")) {
                    boolean primary = node.checkpoints().requestNow();
                    say("FTHP_CHECKPOINT_REQUESTED node=" + config.nodeId() + " primary=" + primary);
                } else if (line.equals("collect-stats")) {
                    collectStats(reportDir, config.nodeId());
                } else if (!line.isEmpty()) {
                    System.err.println("fthp-coordinator: unknown control line '" + line + "'");
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("fthp-coordinator: control channel: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A rank's statistics file in the job directory (replication's RunStatistics: {@code rank-R.stats}). */
    private static final java.util.regex.Pattern STATS_FILE = java.util.regex.Pattern.compile("rank-\\d+\\.stats");

    /**
     * {@code collect-stats}: the run statistics the ranks of this host left in the job directory ({@code
     * --report-dir}, the same path on every host, each host's own), one {@code FTHP_STATS file=rank-R.stats
     * line=...} per file, then {@code FTHP_STATS_DONE node=I}: fthp-run's summary then counts every host's
     * processes, not only its own host's.
     */
    static void collectStats(String reportDir, int nodeId) {
        synchronized (System.out) {
            if (reportDir != null) {
                try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(Path.of(reportDir))) {
                    for (Path f : files.sorted().toList()) {
                        String name = f.getFileName().toString();
                        if (!STATS_FILE.matcher(name).matches()) {
                            continue;
                        }
                        String line = java.nio.file.Files.readString(f).strip();
                        if (!line.isEmpty() && line.indexOf('\n') < 0) {
                            System.out.println("FTHP_STATS file=" + name + " line=" + line);
                        }
                    }
                } catch (java.io.IOException e) {
                    System.err.println("fthp-coordinator: cannot read the run statistics in " + reportDir + ": " + e);
                }
            }
            System.out.println("FTHP_STATS_DONE node=" + nodeId);
            System.out.flush();
        }
    }

    /** The parent is another process that may not be listening yet; keep trying for a while. */
    static void connectWithRetry(NodeCoordinator node) throws InterruptedException {
        connectWithRetry(node, null);
    }

    /** {@code nodes} null: the configuration's list. The tries run on the node's I/O thread, until the deadline. */
    static void connectWithRetry(NodeCoordinator node, List<NodeAddress> nodes) throws InterruptedException {
        try {
            // bounded here too: a try that never completes (a parent that accepts and then says nothing)
            node.connectUpwardWithin(nodes, PARENT_WAIT).get(PARENT_WAIT.plus(ATTEMPT_WAIT).toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("node " + node.nodeId() + " could not reach its parent", e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("node " + node.nodeId() + " could not reach its parent in "
                    + PARENT_WAIT.plus(ATTEMPT_WAIT).toSeconds() + " s", e);
        }
    }

    /** {@code --coordinator-of 0,0,1,1}: the node of each native rank, as fthp-run's FTHP_COORDINATOR_OF. */
    static int[] parsePlacement(String list) {
        String[] words = list.strip().split(",");
        int[] nodes = new int[words.length];
        for (int i = 0; i < words.length; i++) {
            try {
                nodes[i] = Integer.parseInt(words[i].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + words[i] + "' is not a node id (in '" + list + "')");
            }
        }
        return nodes;
    }

    private static String eventsFile(String[] args) {
        return option(args, "--events");
    }

    private static String option(String[] args, String name) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return null;
    }

    /** One whole line on stdout for fthp-run, never interleaved with another thread's. */
    static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** The primary's events: into the log if there is one, and the abort also to stdout for fthp-run. */
    private record LauncherEvents(EventLog log) implements JobEvents {
        @Override
        public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) {
            if (log != null) {
                log.failuresDetected(epoch, newlyFailed);
            }
        }

        @Override
        public void jobAborted(String reason, int lostRank) {
            if (log != null) {
                log.jobAborted(reason, lostRank);
            }
            System.out.println("FTHP_JOB_ABORT " + (lostRank == NO_RANK ? "" : "rank=" + lostRank + " ")
                    + "reason=" + reason);
            System.out.flush();
        }

        /** A child coordinator was lost with its host: fthp-run notes it (it must end mpirun itself later). */
        @Override
        public void hostLost(int node, List<FailedProcess> failed) {
            say("FTHP_HOST_LOST node=" + node + " processes=" + failed.size() + " native="
                    + failed.stream().map(f -> Integer.toString(f.nativeRank()))
                    .collect(java.util.stream.Collectors.joining(",")));
        }

        /** After a host loss, every process finished or failed: fthp-run may end mpirun, which waits for ever. */
        @Override
        public void processesEnded() {
            say("FTHP_JOB_PROCESSES_ENDED");
        }

        /** The same line as an abort, with the program's code: fthp-run ends with it and restarts nothing. */
        @Override
        public void programEnded(String reason, int rank, int exitCode) {
            if (log != null) {
                log.programEnded(reason, rank, exitCode);
            }
            System.out.println("FTHP_JOB_ABORT rank=" + rank + " code=" + exitCode + " reason=" + reason);
            System.out.flush();
        }

        @Override
        public void jobRolledBack(long epoch, int rank, int spare, double seconds) {
            if (log != null) {
                log.jobRolledBack(epoch, rank, spare, seconds);
            }
            System.err.printf(java.util.Locale.ROOT, "fthp-coordinator: rank %d lost every copy; spare %d took its"
                    + " place and the job rolled back in place to checkpoint epoch %d in %.3f s%n", rank, spare, epoch,
                    seconds);
            say(String.format(java.util.Locale.ROOT, "FTHP_CHECKPOINT_ROLLED_BACK epoch=%d rank=%d spare=%d"
                    + " seconds=%.6f", epoch, rank, spare, seconds));
        }

        @Override
        public void replicaRestored(long epoch, int rank, int spare, double seconds) {
            if (log != null) {
                log.replicaRestored(epoch, rank, spare, seconds);
            }
            System.err.printf(java.util.Locale.ROOT, "fthp-coordinator: rank %d had lost a copy; spare %d is its"
                    + " replica again, the job rolled back in place to checkpoint epoch %d in %.3f s%n", rank, spare,
                    epoch, seconds);
            say(String.format(java.util.Locale.ROOT, "FTHP_CHECKPOINT_REPLICA_RESTORED epoch=%d rank=%d spare=%d"
                    + " seconds=%.6f", epoch, rank, spare, seconds));
        }

        /** A rollback in place is logged; a job that cannot roll back in place says why, then ends with the reason. */
        @Override
        public void sdcDetected(String reason, String notInPlace) {
            if (log != null) {
                log.sdcDetected(reason, notInPlace);
            }
            if (notInPlace != null) {
                System.err.println("fthp-coordinator: no rollback in place after a difference between twins: "
                        + notInPlace);
                System.err.flush();
            }
        }

        @Override
        public void sdcRolledBack(long epoch, int rank, double seconds) {
            if (log != null) {
                log.sdcRolledBack(epoch, rank, seconds);
            }
            System.err.printf(java.util.Locale.ROOT, "fthp-coordinator: the twins of rank %d differed (silent data"
                    + " corruption); the job rolled back in place to checkpoint epoch %d in %.3f s%n", rank, epoch,
                    seconds);
            // counted with the rollbacks in place of the summary
            say(String.format(java.util.Locale.ROOT, "FTHP_CHECKPOINT_ROLLED_BACK epoch=%d rank=%d spare=none"
                    + " seconds=%.6f", epoch, rank, seconds));
        }

        @Override
        public void spareLost(int spare, int sparesLeft) {
            if (log != null) {
                log.spareLost(spare, sparesLeft);
            }
            System.err.printf(java.util.Locale.ROOT, "fthp-coordinator: spare %d died while it waited; the job goes on"
                    + " with %d spare%s%n", spare, sparesLeft, sparesLeft == 1 ? "" : "s");
            say("FTHP_SPARE_LOST native=" + spare + " left=" + sparesLeft);
        }

        @Override
        public void checkpointCommitted(long epoch, long bytes, double costSeconds) {
            if (log != null) {
                log.checkpointCommitted(epoch, bytes, costSeconds);
            }
            say("FTHP_CHECKPOINT_COMMITTED epoch=" + epoch + " bytes=" + bytes + " cost="
                    + (Double.isFinite(costSeconds) ? String.format(java.util.Locale.ROOT, "%.6f", costSeconds) : "-"));
        }

        @Override
        public void checkpointInterval(double seconds, String basis) {
            if (log != null) {
                log.checkpointInterval(seconds, basis);
            }
            System.err.printf(java.util.Locale.ROOT, "fthp-coordinator: checkpoint interval %.1f s (%s)%n", seconds,
                    basis);
            say(String.format(java.util.Locale.ROOT, "FTHP_CHECKPOINT_INTERVAL seconds=%.3f basis=%s", seconds, basis));
        }

        @Override
        public void checkpointDurable(long epoch, long bytes) {
            if (log != null) {
                log.checkpointDurable(epoch, bytes);
            }
            say("FTHP_CHECKPOINT_ON_DISK epoch=" + epoch + " bytes=" + bytes);
        }

        @Override
        public void checkpointMemory(int node, long heldBytes, long peakBytes, long limitBytes) {
            say("FTHP_CHECKPOINT_MEMORY node=" + node + " held=" + heldBytes + " peak=" + peakBytes + " limit="
                    + limitBytes);
        }

    }

    static CoordinatorConfig parse(String[] args, JobSecret secret) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got '" + args[i] + "'");
            }
            opts.put(args[i].substring(2), args[++i]);
        }
        List<NodeAddress> nodes = new ArrayList<>();
        String nodeList = required(opts, "nodes");
        int nodeCount;
        if (nodeList.equals(NODES_FROM_STDIN)) {
            // every node binds an ephemeral port on --bind and learns the others' from the launcher
            nodeCount = Integer.parseInt(required(opts, "node-count"));
        } else {
            for (String entry : nodeList.split(",")) {
                nodes.add(NodeAddress.parse(entry.strip()));
            }
            nodeCount = nodes.size();
        }
        int nodeId = Integer.parseInt(required(opts, "node-id"));
        HierarchyLayout layout = new HierarchyLayout(nodeCount, Integer.parseInt(required(opts, "group-size")));
        JobShape shape = new JobShape(Integer.parseInt(required(opts, "ranks")),
                Integer.parseInt(opts.getOrDefault("replicas", "0")));
        if (nodeId < 0 || nodeId >= nodeCount) {
            throw new IllegalArgumentException("--node-id " + nodeId + " is not in --nodes");
        }
        String bind = opts.getOrDefault("bind", CoordinatorConfig.LOOPBACK);
        // one host: a coordinator's end is always seen as a closed connection (one kernel), so heartbeats could only
        // add false alarms when the machine stalls a JVM; several hosts: a host cut off keeps its connections open
        Heartbeats heartbeats = opts.containsKey("heartbeats") ? Heartbeats.parse(opts.get("heartbeats"))
                : nodes.isEmpty() ? Heartbeats.DEFAULT : Heartbeats.OFF;
        return new CoordinatorConfig(nodeId, layout, nodes, bind, nodes.isEmpty() ? 0 : nodes.get(nodeId).port(),
                secret, shape,
                CoordinatorConfig.DEFAULT_AUTH_TIMEOUT, checkpointConfig(opts), heartbeats);
    }

    static CheckpointConfig checkpointConfig(Map<String, String> opts) {
        CheckpointConfig c = CheckpointConfig.DEFAULT;
        if (opts.containsKey("checkpoint-memory")) {
            c = c.withMemoryLimit(Long.parseLong(opts.get("checkpoint-memory")));
        }
        if (opts.containsKey("checkpoint-dir")) {
            c = c.withDirectory(Path.of(opts.get("checkpoint-dir")),
                    Integer.parseInt(opts.getOrDefault("checkpoint-disk-every",
                            Integer.toString(CheckpointConfig.DEFAULT_DISK_EVERY))));
        }
        if (opts.containsKey("checkpoint-job")) {
            c = c.withJob(org.fthp.checkpoint.store.JobIdentity.fromToken(opts.get("checkpoint-job")));
        }
        if (opts.containsKey("restore-replicas")) {
            c = c.withReplicaRestoration(!"off".equals(opts.get("restore-replicas")));
        }
        if (opts.containsKey("checkpoint-interval")) {
            c = c.withInterval(IntervalPolicy.fromArgument(opts.get("checkpoint-interval"),
                    opts.get("mtbf-per-process")));
        }
        return c;
    }

    private static String required(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }
}

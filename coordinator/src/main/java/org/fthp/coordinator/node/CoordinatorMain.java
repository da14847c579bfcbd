package org.fthp.coordinator.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.event.EventLog;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * A node coordinator as its own process, the form {@code fthp-run} will start (one per emulated node with
 * {@code --nodes K}, one per host on a real cluster).
 *
 * <pre>
 * FTHP_JOB_SECRET=&lt;hex&gt; java ... org.fthp.coordinator.node.CoordinatorMain \
 *     --node-id I --nodes h0:p0,h1:p1,... --group-size G --ranks N --replicas M [--bind HOST] [--events FILE]
 * </pre>
 * Every node gets the same {@code --nodes} list and listens on the port its own entry names; {@code --bind}
 * defaults to loopback and must name an interface the other hosts can reach on a multi-host run. The secret is
 * read from the environment only. Creates its proxy report pipe ({@link ProxyReportPipe}), prints one
 * {@code FTHP_COORDINATOR_READY node=I address=host:port reports=/path/to/fifo} line on stdout once listening,
 * then connects to its parent, retrying while the parent is still starting. The primary appends detected failures
 * and aborts to {@code --events} (JSON lines) and prints one {@code FTHP_JOB_ABORT [rank=R] reason=...} line on
 * stdout when the job must end, for the launcher ({@code rank=} is left out when the process that ended it died
 * before it registered).
 */
public final class CoordinatorMain {
    private static final Duration PARENT_WAIT = Duration.ofSeconds(30);

    private CoordinatorMain() {
    }

    public static void main(String[] args) throws Exception {
        CoordinatorConfig config;
        try {
            config = parse(args, JobSecret.fromEnvironment());
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("fthp-coordinator: " + e.getMessage());
            System.exit(2);
            return;
        }
        NodeCoordinator node = new NodeCoordinator(config);
        String eventsFile = eventsFile(args);
        if (config.isPrimary()) {
            node.setJobEvents(new LauncherEvents(eventsFile == null ? null : new EventLog(Path.of(eventsFile))));
        }
        NodeAddress bound = node.start();
        ProxyReportPipe reports = ProxyReportPipe.open(node::pidReported, "fthp-proxy-reports-" + config.nodeId());
        System.out.println("FTHP_COORDINATOR_READY node=" + config.nodeId() + " address=" + bound
                + " reports=" + reports.path());
        System.out.flush();
        connectWithRetry(node);
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            reports.close();
            node.close();
            stop.countDown();
        }, "fthp-coordinator-shutdown"));
        stop.await();
    }

    /** The parent is another process that may not be listening yet; keep trying for a while. */
    static void connectWithRetry(NodeCoordinator node) throws InterruptedException {
        long deadline = System.nanoTime() + PARENT_WAIT.toNanos();
        long backoffMs = 20;
        while (true) {
            try {
                node.connectUpward().get(5, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("node " + node.nodeId() + " could not reach its parent", e);
                }
                Thread.sleep(backoffMs);
                backoffMs = Math.min(backoffMs * 2, 500);
            }
        }
    }

    private static String eventsFile(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--events")) {
                return args[i + 1];
            }
        }
        return null;
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
        for (String entry : required(opts, "nodes").split(",")) {
            nodes.add(NodeAddress.parse(entry.strip()));
        }
        int nodeId = Integer.parseInt(required(opts, "node-id"));
        HierarchyLayout layout = new HierarchyLayout(nodes.size(), Integer.parseInt(required(opts, "group-size")));
        JobShape shape = new JobShape(Integer.parseInt(required(opts, "ranks")),
                Integer.parseInt(opts.getOrDefault("replicas", "0")));
        if (nodeId < 0 || nodeId >= nodes.size()) {
            throw new IllegalArgumentException("--node-id " + nodeId + " is not in --nodes");
        }
        String bind = opts.getOrDefault("bind", CoordinatorConfig.LOOPBACK);
        return new CoordinatorConfig(nodeId, layout, nodes, bind, nodes.get(nodeId).port(), secret, shape,
                CoordinatorConfig.DEFAULT_AUTH_TIMEOUT);
    }

    private static String required(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }
}

package org.fthp.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The coordinator processes of one job: one {@code CoordinatorMain} per
 * (emulated) node on loopback, started before mpirun and stopped after it.
 *
 * <p>The per-job secret is generated here and handed over in the environment
 * only. The primary prints {@code FTHP_JOB_ABORT ...} when a rank has lost
 * every copy; whoever registered with {@link #onAbort} is told, once.
 *
 * <p>Each coordinator names on its ready line the named pipe it reads the
 * proxy library's death reports from; {@link #reportPipes} lists them for the
 * proxy, which writes every report to all of them (on one host every
 * coordinator is told, and the one that owns the pid acts).
 */
final class Coordinators implements AutoCloseable {

    static final String SECRET_ENV = "FTHP_JOB_SECRET";
    static final String ADDRESSES_ENV = "FTHP_COORDINATORS";
    private static final String MAIN = "org.fthp.coordinator.node.CoordinatorMain";
    private static final String READY = "FTHP_COORDINATOR_READY";
    private static final String ABORT = "FTHP_JOB_ABORT";
    private static final String HOST_LOST = "FTHP_HOST_LOST";
    private static final String PROCESSES_ENDED = "FTHP_JOB_PROCESSES_ENDED";
    private static final long READY_SECONDS = 30;

    private static final String REPORTS_FIELD = " reports=";

    private final List<Process> processes = new ArrayList<>();
    /** Each coordinator's stdin: the control channel for a new incarnation of the job. */
    private final List<java.io.Writer> controls = new ArrayList<>();
    private final CheckpointReport checkpoints = new CheckpointReport();
    /** Answers to the current new-incarnation or settle command, one per node. */
    private volatile CountDownLatch resets = new CountDownLatch(0);
    /** The primary's last commit, from its answer to new-incarnation: the epoch the restart reads. */
    private volatile long resetCommitted = -1;
    /** The highest epoch any node has handled anything for, from the answers to new-incarnation. */
    private final java.util.concurrent.atomic.AtomicLong resetSeen = new java.util.concurrent.atomic.AtomicLong(-1);
    /** Each node's proxy report pipe, by node id, filled in from the ready lines. */
    private final String[] reportPipes;
    private final String secretHex;
    /** Every node's address, comma-separated; on several hosts known once every node is ready. */
    private volatile String addresses;
    /** Each node's address from its ready line, by node id. */
    private final String[] readyAddresses;
    /** Replaced at each new incarnation: an abort ends one incarnation. */
    private volatile CompletableFuture<String> abort = new CompletableFuture<>();
    /** Several hosts: the primary's lines about lost hosts, in order. */
    private final List<String> hostsLost = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Told of each lost host's line (see {@link #onHostLost}). */
    private final List<Consumer<String>> hostLostActions = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Completed when, after a host was lost, every process has finished or failed (the primary says so). */
    private final CompletableFuture<Void> processesEnded = new CompletableFuture<>();

    private Coordinators(String secretHex, String addresses, int nodes) {
        this.secretHex = secretHex;
        this.addresses = addresses;
        this.reportPipes = new String[nodes];
        this.readyAddresses = new String[nodes];
    }

    /**
     * One coordinator per host (node k on host k, the primary on the first), each listening on an ephemeral port
     * of its host's address {@code bind[k]}: a host that is this machine gets a child process, any other is
     * reached through {@code agent}, with {@code scripts/fthp-coordinator.sh} reading the secret from the agent's
     * stdin. Every node makes its proxy report FIFO in {@code reportDir} on its own host. Once every ready line
     * is in, each node is sent the whole node list and connects to its parent.
     */
    static Coordinators startOnHosts(CoordinatorPlan plan, HostList hosts, List<String> bind, boolean[] local,
                                     RemoteAgent agent, Path wrapper, int ranks, int replicas, Path java,
                                     Path runtimeJar, CheckpointPlan checkpoint, String reportDir,
                                     String coordinatorOf) throws LaunchException {
        return startOnHosts(plan, hosts, bind, local, agent, wrapper, ranks, replicas, java, runtimeJar, checkpoint,
                reportDir, coordinatorOf, newSecret());
    }

    /** A new job secret (hex): every coordinator set of one fthp-run may share it, as its output sink does. */
    static String newSecret() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return HexFormat.of().formatHex(secret);
    }

    /** As above, with the job secret {@code secretHex} (a relaunch keeps the one its output sink knows). */
    static Coordinators startOnHosts(CoordinatorPlan plan, HostList hosts, List<String> bind, boolean[] local,
                                     RemoteAgent agent, Path wrapper, int ranks, int replicas, Path java,
                                     Path runtimeJar, CheckpointPlan checkpoint, String reportDir,
                                     String coordinatorOf, String secretHex) throws LaunchException {
        int nodes = hosts.count();
        Coordinators c = new Coordinators(secretHex, "", nodes);
        CountDownLatch ready = new CountDownLatch(nodes);
        try {
            for (int id = 0; id < nodes; id++) {
                List<String> cmd = command(java, runtimeJar, plan, checkpoint, ranks, replicas, id,
                        List.of("--nodes", "stdin", "--node-count", Integer.toString(nodes), "--bind", bind.get(id),
                                "--report-dir", reportDir, "--coordinator-of", coordinatorOf));
                ProcessBuilder pb;
                if (local[id]) {
                    pb = new ProcessBuilder(cmd);
                    pb.environment().put(SECRET_ENV, c.secretHex);
                } else {
                    List<String> remote = new ArrayList<>();
                    remote.add(wrapper.toString());
                    remote.addAll(cmd);
                    pb = new ProcessBuilder(agent.command(hosts.get(id).name(), remote));
                }
                Process p = pb.redirectError(ProcessBuilder.Redirect.INHERIT).start();
                c.processes.add(p);
                java.io.Writer control = new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
                c.controls.add(control);
                if (!local[id]) {
                    // the first line of the agent's stdin, read by the wrapper on the host: never on a command line
                    control.write(c.secretHex + "\n");
                    control.flush();
                }
                // one that ends before its ready line (it failed to start, or the agent could not reach the
                // host) ends the wait too: its missing address says which
                AtomicBoolean counted = new AtomicBoolean();
                Runnable once = () -> {
                    if (counted.compareAndSet(false, true)) {
                        ready.countDown();
                    }
                };
                c.watch(p, id, once, once);
            }
            if (!ready.await(READY_SECONDS, TimeUnit.SECONDS)) {
                throw LaunchException.environment("the coordinators did not start within " + READY_SECONDS
                        + " s on every host");
            }
            List<String> listening = new ArrayList<>();
            synchronized (c.reportPipes) {
                for (int id = 0; id < nodes; id++) {
                    if (c.readyAddresses[id] == null) {
                        throw LaunchException.environment("the coordinator on " + hosts.get(id).name()
                                + " ended before it was ready (its error is above)");
                    }
                    listening.add(c.readyAddresses[id]);
                }
            }
            c.addresses = String.join(",", listening);
            for (java.io.Writer control : c.controls) {
                control.write("nodes " + c.addresses + "\n");
                control.flush();
            }
        } catch (IOException | InterruptedException | LaunchException e) {
            throw c.startFailed(e);
        }
        return c;
    }

    static Coordinators start(CoordinatorPlan plan, int ranks, int replicas, Path java, Path runtimeJar)
            throws LaunchException {
        return start(plan, ranks, replicas, java, runtimeJar, CheckpointPlan.NONE);
    }

    static Coordinators start(CoordinatorPlan plan, int ranks, int replicas, Path java, Path runtimeJar,
                              CheckpointPlan checkpoint) throws LaunchException {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        List<Integer> ports = freePorts(plan.nodes());
        List<String> nodes = new ArrayList<>();
        for (int port : ports) {
            nodes.add("127.0.0.1:" + port);
        }
        Coordinators c = new Coordinators(HexFormat.of().formatHex(secret), String.join(",", nodes), plan.nodes());
        CountDownLatch ready = new CountDownLatch(plan.nodes());
        try {
            for (int id = 0; id < plan.nodes(); id++) {
                // stdin is a pipe: the control channel (new-incarnation) for restarts, and the lifeline: when this
                // JVM dies, even by SIGKILL, its end closes and the coordinator ends
                List<String> cmd = command(java, runtimeJar, plan, checkpoint, ranks, replicas, id,
                        List.of("--nodes", c.addresses, "--lifeline", "stdin"));
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
                pb.environment().put(SECRET_ENV, c.secretHex);
                Process p = pb.start();
                c.processes.add(p);
                c.controls.add(new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
                c.watch(p, id, ready::countDown);
            }
            if (!ready.await(READY_SECONDS, TimeUnit.SECONDS)) {
                throw LaunchException.environment("the coordinators did not start within " + READY_SECONDS + " s");
            }
        } catch (IOException | InterruptedException | LaunchException e) {
            throw c.startFailed(e);
        }
        return c;
    }

    /**
     * One coordinator's command line: this JVM's options (native access: it creates its report pipe with libc
     * mkfifo through FFM), node {@code id}, {@code where} (how it learns the other nodes and what it binds), the
     * job's shape, the primary's event log and the checkpoint options.
     */
    private static List<String> command(Path java, Path runtimeJar, CoordinatorPlan plan, CheckpointPlan checkpoint,
                                        int ranks, int replicas, int id, List<String> where) {
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC", heapFor(checkpoint),
                "-XX:TieredStopAtLevel=1", "-Dio.netty.noUnsafe=true", "-cp", runtimeJar.toString(), MAIN,
                "--node-id", Integer.toString(id)));
        cmd.addAll(where);
        cmd.addAll(List.of("--group-size", Integer.toString(plan.groupSize()),
                "--ranks", Integer.toString(ranks), "--replicas", Integer.toString(replicas)));
        if (id == 0 && plan.events().isPresent()) {
            cmd.add("--events");
            cmd.add(plan.events().get().toAbsolutePath().toString());
        }
        cmd.addAll(checkpointArgs(checkpoint));
        return cmd;
    }

    /** Ends the coordinators started so far and says why none could be (start-up failed with {@code e}). */
    private LaunchException startFailed(Exception e) {
        close();
        if (e instanceof LaunchException launch) {
            return launch;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return LaunchException.environment("interrupted while starting the coordinators");
        }
        return LaunchException.environment("cannot start the coordinators: " + e.getMessage());
    }

    /** Ports free right now on loopback; the coordinators bind them a moment later. */
    private static List<Integer> freePorts(int n) throws LaunchException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            List<Integer> ports = new ArrayList<>();
            for (ServerSocket s : held) {
                ports.add(s.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw LaunchException.environment("no free loopback port for a coordinator: " + e.getMessage());
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // nothing to do
                }
            }
        }
    }

    /** Reads one coordinator's stdout: its ready line, and the primary's abort line. */
    private void watch(Process p, int id, Runnable onReady) {
        watch(p, id, onReady, () -> { });
    }

    /** As above; {@code onEnd} runs when the coordinator's stdout ends (it exited, or its agent did). */
    private void watch(Process p, int id, Runnable onReady, Runnable onEnd) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith(READY)) {
                        String address = CheckpointReport.fields(line).get("address");
                        int at = line.indexOf(REPORTS_FIELD);
                        if (at >= 0) {
                            synchronized (reportPipes) {
                                reportPipes[id] = line.substring(at + REPORTS_FIELD.length()).strip();
                            }
                        }
                        synchronized (reportPipes) {
                            readyAddresses[id] = address;
                        }
                        onReady.run();
                    } else if (line.startsWith(ABORT)) {
                        abort.complete(line.substring(ABORT.length()).strip());
                    } else if (line.startsWith(HOST_LOST)) {
                        String what = line.substring(HOST_LOST.length()).strip();
                        hostsLost.add(what);
                        System.err.println("fthp-run: the coordinators lost a host (" + what + "): its processes"
                                + " are failed with it");
                        hostLostActions.forEach(a -> a.accept(what));
                    } else if (line.startsWith(PROCESSES_ENDED)) {
                        processesEnded.complete(null);
                    } else if (line.startsWith(RESET)) {
                        Map<String, String> fields = CheckpointReport.fields(line);
                        if (id == 0) {
                            resetCommitted = Long.parseLong(fields.getOrDefault("committed", "-1"));
                        }
                        resetSeen.accumulateAndGet(Long.parseLong(fields.getOrDefault("seen", "-1")), Math::max);
                        resets.countDown();
                    } else if (line.startsWith(SETTLED)) {
                        resets.countDown();
                    } else if (line.startsWith(REGISTERED)) {
                        String rank = CheckpointReport.fields(line).get("native");
                        if (rank != null) {
                            registered.add(Integer.parseInt(rank));
                        }
                    } else if (line.startsWith(KILLED)) {
                        Map<String, String> fields = CheckpointReport.fields(line);
                        CompletableFuture<java.util.OptionalLong> answer = kills.remove(fields.get("native"));
                        if (answer != null) {
                            String pid = fields.getOrDefault("pid", "-");
                            answer.complete(pid.matches("\\d+") ? java.util.OptionalLong.of(Long.parseLong(pid))
                                    : java.util.OptionalLong.empty());
                        }
                    } else if (line.startsWith(STATS)) {
                        statsLine(line);
                    } else if (line.startsWith(STATS_DONE)) {
                        statsDone.countDown();
                    } else if (line.startsWith("FTHP_CHECKPOINT_") || line.startsWith("FTHP_SPARE_LOST")) {
                        checkpoints.line(line);
                    }
                }
            } catch (IOException ignored) {
                // the coordinator went away; close() deals with it
            }
            onEnd.run();
        }, "fthp-run-coordinator-" + id);
        t.setDaemon(true);
        t.start();
    }

    private static final String RESET = "FTHP_COORDINATOR_RESET";
    private static final String STATS = "FTHP_STATS ";
    private static final String REGISTERED = "FTHP_PROCESS_REGISTERED";
    private static final String KILLED = "FTHP_KILLED";
    private static final long KILL_SECONDS = 5;
    /** Several hosts: native ranks that have registered with their coordinator (the injector's readiness). */
    private final java.util.Set<Integer> registered = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Kill requests waiting for their coordinator's answer, by native rank. */
    private final Map<String, CompletableFuture<java.util.OptionalLong>> kills =
            new java.util.concurrent.ConcurrentHashMap<>();
    private static final String STATS_DONE = "FTHP_STATS_DONE";
    private static final long STATS_SECONDS = 5;
    private static final java.util.regex.Pattern STATS_FILE = java.util.regex.Pattern.compile("rank-\\d+\\.stats");
    /** Where {@link #collectStats} writes what the other hosts' coordinators send. */
    private volatile Path statsInto;
    private volatile CountDownLatch statsDone = new CountDownLatch(0);
    private static final String SETTLED = "FTHP_COORDINATOR_SETTLED";
    private static final long RESET_SECONDS = 10;
    /** Heap besides the pieces: Netty, transfers in flight, the JVM itself. */
    private static final long HEAP_HEADROOM_BYTES = 256L << 20;

    /** Room for the pieces the coordinator may hold, and for a piece being relayed on top. */
    private static String heapFor(CheckpointPlan checkpoint) {
        long pieces = checkpoint.memoryBytes();
        return "-Xmx" + ((pieces + pieces / 4 + HEAP_HEADROOM_BYTES) >> 20) + "m";
    }

    private static List<String> checkpointArgs(CheckpointPlan checkpoint) {
        List<String> args = new ArrayList<>(List.of("--checkpoint-memory", Long.toString(checkpoint.memoryBytes())));
        checkpoint.directory().ifPresent(dir -> {
            args.addAll(List.of("--checkpoint-dir", dir.toAbsolutePath().toString(),
                    "--checkpoint-disk-every", Integer.toString(checkpoint.diskEvery())));
        });
        checkpoint.interval().ifPresent(i -> args.addAll(List.of("--checkpoint-interval", i)));
        if (checkpoint.directory().isPresent()) {
            checkpoint.job().ifPresent(job -> args.addAll(List.of("--checkpoint-job", job.token())));
        }
        checkpoint.mtbfPerProcess().ifPresent(m -> args.addAll(List.of("--mtbf-per-process", Double.toString(m))));
        if (!checkpoint.restoreReplicas()) {
            args.addAll(List.of("--restore-replicas", "off"));
        }
        return args;
    }

    /**
     * Asks the primary for a checkpoint at the ranks' next snapshot, whatever its timer says (fthp-run was told to
     * stop); false if it cannot be reached.
     */
    boolean requestCheckpoint() {
        java.io.Writer control = controls.get(0);
        try {
            synchronized (control) {
                control.write("checkpoint-now\n");
                control.flush();
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Commits, costs, memory and restarts heard so far. */
    CheckpointReport checkpoints() {
        return checkpoints;
    }

    /** Where a relaunched job's checkpoints stand: the epoch it recovers (-1: none) and the first it writes. */
    record RestartPoint(long epoch, long firstEpoch) {}

    /**
     * Starts a new incarnation of the job on every coordinator (failure state cleared, M set to {@code replicas})
     * and settles its checkpoints, in two steps: every node stops the old incarnation and says what it knows (the
     * primary then commits nothing more, so its last commit is the restart's epoch), then every node keeps that
     * epoch, drops the newer ones that never committed, and the relaunched job numbers its checkpoints above every
     * epoch any node saw (whatever the old incarnation left in flight can never be taken for its pieces). Call only
     * once the native job has ended.
     */
    RestartPoint newIncarnation(int replicas) throws LaunchException {
        return newIncarnation(replicas, new RestartPoint(-1, 1));
    }

    /**
     * As above, for a job that resumed from {@code resumed} (an earlier job's epoch in the checkpoint directory):
     * without a commit of its own the restart reads that epoch again, and epochs stay above the directory's.
     */
    RestartPoint newIncarnation(int replicas, RestartPoint resumed) throws LaunchException {
        resetCommitted = -1;
        resetSeen.set(-1);
        abort = new CompletableFuture<>();
        command("new-incarnation replicas=" + replicas, "start a new incarnation");
        long epoch = Math.max(resetCommitted, resumed.epoch());
        long first = Math.max(Math.max(epoch, resetSeen.get()) + 1, resumed.firstEpoch());
        command("settle-checkpoints committed=" + epoch + " first=" + first, "settle the checkpoints");
        return new RestartPoint(epoch, first);
    }

    /**
     * Several hosts: asks every coordinator except node 0 (which shares fthp-run's /tmp) for the run statistics
     * its host's ranks left in the job directory, and writes them into {@code jobDir} here, so the summary counts
     * every host's processes. A host that does not answer within a few seconds (lost, or its coordinator gone)
     * is left out: the summary says how many processes reported.
     */
    void collectStats(Path jobDir) {
        if (processes.size() < 2) {
            return;
        }
        statsInto = jobDir;
        CountDownLatch answered = new CountDownLatch(processes.size() - 1);
        statsDone = answered;
        try {
            for (int id = 1; id < controls.size(); id++) {
                if (!processes.get(id).isAlive()) {
                    answered.countDown();
                    continue;
                }
                try {
                    controls.get(id).write("collect-stats\n");
                    controls.get(id).flush();
                } catch (IOException e) {
                    answered.countDown();   // its host is gone: its ranks' figures with it
                }
            }
            answered.await(STATS_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One {@code FTHP_STATS file=rank-R.stats line=...} from another host: into the local job directory. */
    private void statsLine(String line) {
        Path dir = statsInto;
        int fileAt = line.indexOf("file=");
        int lineAt = line.indexOf(" line=");
        if (dir == null || fileAt < 0 || lineAt < fileAt) {
            return;
        }
        String name = line.substring(fileAt + "file=".length(), lineAt).strip();
        if (!STATS_FILE.matcher(name).matches()) {
            return;   // only a rank's statistics file, never another path
        }
        try {
            java.nio.file.Files.writeString(dir.resolve(name), line.substring(lineAt + " line=".length()) + "\n");
        } catch (IOException e) {
            // a partial summary is still a summary
        }
    }

    /**
     * The rank processes on several hosts as the failure injector sees them: ready once every process has
     * registered, and killed by the coordinator of the host they run on ({@code nodeOf[r]}), which knows their
     * pid on that host.
     */
    org.fthp.launcher.inject.FailureInjector.Targets killTargets(int[] nodeOf) {
        java.util.Set<Integer> killed = java.util.concurrent.ConcurrentHashMap.newKeySet();
        return new org.fthp.launcher.inject.FailureInjector.Targets() {
            @Override
            public boolean allReady(int count) {
                return registered.size() >= count;
            }

            @Override
            public java.util.Set<Integer> live() {
                java.util.Set<Integer> live = new java.util.TreeSet<>(registered);
                live.removeAll(killed);
                return live;
            }

            @Override
            public java.util.OptionalLong kill(int nativeRank) {
                java.util.OptionalLong pid = killOn(nodeOf[nativeRank], nativeRank);
                killed.add(nativeRank);
                return pid;
            }
        };
    }

    /** Asks node {@code node}'s coordinator to SIGKILL native rank {@code nativeRank}; its pid, or empty. */
    private java.util.OptionalLong killOn(int node, int nativeRank) {
        CompletableFuture<java.util.OptionalLong> answer = new CompletableFuture<>();
        kills.put(Integer.toString(nativeRank), answer);
        try {
            java.io.Writer control = controls.get(node);
            synchronized (control) {
                control.write("kill native=" + nativeRank + "\n");
                control.flush();
            }
            return answer.get(KILL_SECONDS, TimeUnit.SECONDS);
        } catch (IOException | java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return java.util.OptionalLong.empty();   // its host or coordinator is gone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.OptionalLong.empty();
        } finally {
            kills.remove(Integer.toString(nativeRank));
        }
    }

    /** Sends {@code line} to every coordinator and waits until each has answered it. */
    private void command(String line, String what) throws LaunchException {
        CountDownLatch answered = new CountDownLatch(processes.size());
        resets = answered;
        try {
            for (java.io.Writer control : controls) {
                control.write(line + "\n");
                control.flush();
            }
            if (!answered.await(RESET_SECONDS, TimeUnit.SECONDS)) {
                throw LaunchException.environment("the coordinators did not " + what + " within "
                        + RESET_SECONDS + " s");
            }
        } catch (IOException e) {
            throw LaunchException.environment("cannot reach the coordinators to restart the job: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LaunchException.environment("interrupted while restarting the job");
        }
    }

    /** What the ranks need to find and authenticate to their coordinators. */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(SECRET_ENV, secretHex);
        env.put(ADDRESSES_ENV, addresses);
        return env;
    }

    /**
     * Every coordinator's proxy report pipe, colon-separated, for FTHP_PROXY_REPORT. Complete once
     * {@link #start} has returned (every ready line has been read).
     */
    String reportPipes() throws LaunchException {
        List<String> pipes = new ArrayList<>();
        synchronized (reportPipes) {
            for (int id = 0; id < reportPipes.length; id++) {
                String pipe = reportPipes[id];
                if (pipe == null || pipe.isEmpty() || pipe.contains(":")) {
                    throw LaunchException.environment("coordinator " + id + " named no usable report pipe: " + pipe);
                }
                pipes.add(pipe);
            }
        }
        return String.join(":", pipes);
    }

    /** Node {@code id}'s proxy report pipe (on its own host), as its ready line named it. */
    String reportPipe(int id) throws LaunchException {
        synchronized (reportPipes) {
            String pipe = reportPipes[id];
            if (pipe == null || pipe.isEmpty() || pipe.contains(":")) {
                throw LaunchException.environment("coordinator " + id + " named no usable report pipe: " + pipe);
            }
            return pipe;
        }
    }

    /** Runs {@code action} with the primary's abort line (e.g. "rank=1 reason=...") if the job is aborted. */
    void onAbort(Consumer<String> action) {
        abort.thenAccept(action);
    }

    /**
     * Runs {@code action} when, after a host was lost, every process has finished or failed: Open MPI's mpirun,
     * which survives the lost daemon only in recovery mode, still waits for that host's processes.
     */
    void onProcessesEnded(Runnable action) {
        processesEnded.thenRun(action);
    }

    /**
     * Runs {@code action} with the primary's line for each lost host ({@code node=K processes=P native=...}), those
     * lost before this call included (one may then be told twice: its action must not mind).
     */
    void onHostLost(Consumer<String> action) {
        hostLostActions.add(action);
        hostsLost.forEach(action);
    }

    /**
     * The nodes (host indices) lost so far: those the primary said it lost, and those whose coordinator process
     * (or its remote agent) has ended.
     */
    java.util.Set<Integer> lostNodes() {
        java.util.Set<Integer> lost = new java.util.TreeSet<>();
        for (String what : hostsLost) {
            String node = CheckpointReport.fields(what).get("node");
            if (node != null && node.matches("\\d+")) {
                lost.add(Integer.parseInt(node));
            }
        }
        for (int id = 0; id < processes.size(); id++) {
            if (!processes.get(id).isAlive()) {
                lost.add(id);
            }
        }
        return lost;
    }

    /** Whether a host was lost during the job (the primary said so). */
    boolean hostLost() {
        return !hostsLost.isEmpty();
    }

    /** Whether every process had finished or failed after a host loss. */
    boolean processesEnded() {
        return processesEnded.isDone();
    }

    /** The abort line of the current incarnation, if it was aborted. */
    java.util.Optional<String> abortLine() {
        CompletableFuture<String> current = abort;
        return current.isDone() && !current.isCompletedExceptionally()
                ? java.util.Optional.of(current.join()) : java.util.Optional.empty();
    }

    /** Whether the primary has ended (or within {@code seconds} ends) the job. */
    boolean awaitAbort(long seconds) {
        try {
            abort.get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return abort.isDone();
        }
    }

    /** Stops every coordinator process, by the handles we started them with. */
    @Override
    public void close() {
        for (java.io.Writer control : controls) {
            try {
                control.close();
            } catch (IOException ignored) {
                // the coordinator is gone already
            }
        }
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(3, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        // a coordinator killed before its own close leaves its checkpoint pieces in the host's shared memory
        for (String node : addresses.split(",")) {
            if (node.isBlank()) {
                continue;
            }
            String port = node.substring(node.lastIndexOf(':') + 1).strip();
            sweepPieces(port);
        }
    }

    /**
     * Deletes the shared-memory piece files of the coordinator at {@code port}: the names and the directory are
     * coordinator.checkpoint.PieceDirectory's (the launcher does not link the coordinator, so they are spelt here).
     */
    private static void sweepPieces(String port) {
        String env = System.getenv("FTHP_PIECE_DIR");
        java.nio.file.Path dir = java.nio.file.Path.of(env != null && !env.isBlank() ? env.strip()
                : java.nio.file.Files.isDirectory(java.nio.file.Path.of("/dev/shm")) ? "/dev/shm"
                : System.getProperty("java.io.tmpdir"));
        try (java.nio.file.DirectoryStream<java.nio.file.Path> files =
                     java.nio.file.Files.newDirectoryStream(dir, "fthp-*-" + port + "-*")) {
            for (java.nio.file.Path f : files) {
                if (f.getFileName().toString().matches("fthp-(put|held|free|seen)-" + port + "-.*")) {
                    java.nio.file.Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            // nothing there, or not ours to delete
        }
    }
}

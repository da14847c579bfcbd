package org.fthp.it.hosts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * 2 to 4 emulated hosts for one test: each a Linux network namespace with its
 * own address on a private bridge, its own hostname, loopback and /tmp, made by
 * {@code scripts/emulated-hosts.sh} (the one implementation, shared with
 * manual use) and removed by {@link #close}, or by a JVM shutdown hook if the
 * test never gets there. A checkout under /tmp stays visible on every host at its own path (the script binds it
 * into each host's /tmp), so the suite runs from any directory.
 *
 * <p>Every run has its own id (this JVM's pid and a counter), and every name
 * it makes carries it, so parallel runs never meet; removal takes exactly the
 * namespaces the run made, after killing the processes inside them.
 *
 * <p>mpirun runs inside host 0 ({@link #onHost}); Open MPI reaches the other
 * hosts through the run's remote agent ({@link #mpirunOptions}), which runs
 * each remote {@code orted} inside its host's namespace.
 */
public final class EmulatedHosts implements AutoCloseable {

    /** The subnet the script gives the hosts: host k is {@code SUBNET_PREFIX.(k+1)}. */
    public static final String SUBNET = "10.213.0.0/24";
    private static final String SUBNET_PREFIX = "10.213.0.";
    private static final int MAX_HOSTS = 4;
    private static final long COMMAND_SECONDS = 60;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final String id;
    private final int count;
    private final Path script;
    private final Path agent;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;

    private EmulatedHosts(String id, int count, Path script, Path agent) {
        this.id = id;
        this.count = count;
        this.script = script;
        this.agent = agent;
        this.shutdownHook = new Thread(this::remove, "emulated-hosts-" + id);
    }

    /**
     * Makes {@code count} hosts h0..h(count-1).
     *
     * @throws Unavailable when this machine cannot make network namespaces (not root, no {@code ip},
     *                     no permission): a test skips then; any other failure is an error
     */
    public static EmulatedHosts create(Path home, int count) throws Unavailable {
        if (count < 1 || count > MAX_HOSTS) {
            throw new IllegalArgumentException("1 to " + MAX_HOSTS + " hosts, not " + count);
        }
        Path script = home.resolve("scripts/emulated-hosts.sh");
        checkAvailable(script);
        String id = "j" + ProcessHandle.current().pid() + "n" + RUNS.incrementAndGet();
        Outcome up = run(List.of(script.toString(), "up", Integer.toString(count), id));
        if (up.code != 0) {
            throw new IllegalStateException("emulated hosts did not come up (exit " + up.code + "): " + up.output);
        }
        Outcome agent = run(List.of(script.toString(), "agent", id));
        EmulatedHosts hosts = new EmulatedHosts(id, count, script, Path.of(agent.output.strip()));
        Runtime.getRuntime().addShutdownHook(hosts.shutdownHook);
        return hosts;
    }

    /** Root, the {@code ip} tool, and a namespace this process may make: otherwise {@link Unavailable}. */
    private static void checkAvailable(Path script) throws Unavailable {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new Unavailable("network namespaces need root (running as " + System.getProperty("user.name") + ")");
        }
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException(script + " is missing or not executable");
        }
        String probe = "fthp-j" + ProcessHandle.current().pid() + "n" + RUNS.incrementAndGet() + "-probe";
        Outcome add;
        try {
            add = run(List.of("ip", "netns", "add", probe));
        } catch (IllegalStateException e) {
            throw new Unavailable("the ip tool (iproute2) cannot run: " + e.getMessage());
        }
        if (add.code != 0) {
            throw new Unavailable("cannot make a network namespace here: " + add.output.strip());
        }
        run(List.of("ip", "netns", "del", probe));
    }

    public String id() {
        return id;
    }

    public int count() {
        return count;
    }

    /** The host name of host {@code k} as every host resolves it (and as its own hostname). */
    public String name(int k) {
        checkHost(k);
        return "h" + k;
    }

    /** Host {@code k}'s address on the emulated network. */
    public String address(int k) {
        checkHost(k);
        return SUBNET_PREFIX + (k + 1);
    }

    /** The network namespace behind host {@code k}. */
    public String namespace(int k) {
        checkHost(k);
        return "fthp-" + id + "-h" + k;
    }

    /**
     * Where host {@code k}'s {@code /tmp} is, seen from outside the hosts: each host has its own, as cluster
     * nodes have node-local /tmp (the repository and the JDK are shared, as on a shared file system).
     */
    public Path tmpOf(int k) {
        return agent.getParent().resolve("tmp").resolve(name(k));
    }

    /** Open MPI's remote agent for these hosts: {@code agent HOST command...} runs the command on HOST. */
    public Path agent() {
        return agent;
    }

    /** {@code h0:slots,h1:slots,...}: mpirun's {@code --host} list with as many slots on each host. */
    public String hostList(int slotsPerHost) {
        List<String> hosts = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            hosts.add(name(k) + ":" + slotsPerHost);
        }
        return String.join(",", hosts);
    }

    /**
     * mpirun options for a job on these hosts: the remote agent, and out-of-band and MPI traffic over
     * the emulated network (each namespace has only lo and that network, so Open MPI would choose it
     * anyway; said explicitly, as a cluster with several networks needs).
     */
    public List<String> mpirunOptions() {
        return List.of("--mca", "plm_rsh_agent", agent.toString(),
                "--mca", "oob_tcp_if_include", SUBNET,
                "--mca", "btl_tcp_if_include", SUBNET);
    }

    /** {@code command} run on host {@code k} (inside its namespace, under its hostname). */
    public List<String> onHost(int k, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of(script.toString(), "exec", id, name(k)));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The pids of every process now running on host {@code k} (its ranks, its orted, ...). */
    public List<Long> pidsOn(int k) {
        Outcome out = run(List.of("ip", "netns", "pids", namespace(k)));
        if (out.code != 0) {
            throw new IllegalStateException("ip netns pids " + namespace(k) + ": " + out.output);
        }
        return out.output.lines().map(String::strip).filter(s -> !s.isEmpty()).map(Long::parseLong).toList();
    }

    /** Host {@code k} crashes: every process on it (its orted, ranks, coordinator) is SIGKILLed. */
    public void crash(int k) {
        script("kill", name(k));
    }

    /**
     * Host {@code k}'s switch port goes down (a pulled cable): its packets are dropped, open connections
     * notice only through their own timeouts; {@link #reconnect} undoes it.
     */
    public void disconnect(int k) {
        script("cut", name(k));
    }

    public void reconnect(int k) {
        script("mend", name(k));
    }

    private void script(String command, String host) {
        Outcome out = run(List.of(script.toString(), command, id, host));
        if (out.code != 0) {
            throw new IllegalStateException("emulated-hosts.sh " + command + " " + id + " " + host + ": " + out.output);
        }
    }

    /** Kills what still runs on the hosts and removes them; safe to call twice. */
    @Override
    public void close() {
        remove();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs (or ran) remove(), which is idempotent
        }
    }

    private void remove() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Outcome down = run(List.of(script.toString(), "down", id));
        if (down.code != 0) {
            System.err.println("emulated hosts " + id + " not removed cleanly: " + down.output);
        }
    }

    private void checkHost(int k) {
        if (k < 0 || k >= count) {
            throw new IndexOutOfBoundsException("host " + k + " of " + count);
        }
    }

    private record Outcome(int code, String output) {}

    /** Runs a short command to its end (bounded), stdout and stderr together. */
    private static Outcome run(List<String> command) {
        try {
            Path out = Files.createTempFile("fthp-hosts", ".out");
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
                if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", command) + " did not end in "
                            + COMMAND_SECONDS + " s");
                }
                return new Outcome(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }

    /** This machine cannot make emulated hosts (a test skips, saying why). */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String why) {
            super(why);
        }
    }
}

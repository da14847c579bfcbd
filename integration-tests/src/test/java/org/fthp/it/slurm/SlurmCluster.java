package org.fthp.it.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real Slurm on emulated nodes for one test class ({@code scripts/slurm-cluster.sh}): slurmctld, munged and one
 * slurmd per node, every file under the test's own directory, removed by {@link #close} (and at JVM exit if the
 * test did not get there). The clients (sbatch, squeue, scontrol, scancel) run here with the cluster's
 * {@code SLURM_CONF}.
 */
public final class SlurmCluster implements AutoCloseable {

    private static final long COMMAND_SECONDS = 90;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final Path script;
    private final Path dir;
    private final Map<String, String> env;
    private final Thread atExit;
    private boolean down;

    private SlurmCluster(Path script, Path dir) {
        this.script = script;
        this.dir = dir;
        this.env = Map.of("SLURM_CONF", dir.resolve("slurm.conf").toString());
        this.atExit = new Thread(this::remove, "slurm-cluster-down");
        Runtime.getRuntime().addShutdownHook(atExit);
    }

    /** Thrown when this machine cannot run the cluster (not root, no Slurm): the test is skipped, not failed. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String why) {
            super(why);
        }
    }

    /** Nodes n1..nN in {@code dir} (created; must not hold a cluster). */
    public static SlurmCluster up(Path home, Path dir, int nodes) throws Unavailable {
        Path script = home.resolve("scripts/slurm-cluster.sh");
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new Unavailable("not root");
        }
        for (String tool : List.of("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch")) {
            if (!Files.isExecutable(Path.of(tool))) {
                throw new Unavailable(tool + " is not installed (scripts/setup.sh installs Slurm)");
            }
        }
        String id = "t" + (ProcessHandle.current().pid() % 100000) + RUNS.incrementAndGet();
        Outcome o = run(List.of(script.toString(), "up", Integer.toString(nodes), dir.toString(), id), Map.of());
        if (o.code != 0) {
            throw new IllegalStateException("slurm-cluster.sh up failed: " + o.output);
        }
        return new SlurmCluster(script, dir);
    }

    public Map<String, String> environment() {
        return env;
    }

    /** Submits {@code batchScript} (sbatch options in the script); its job id. */
    public String sbatch(Path batchScript, String... options) {
        List<String> cmd = new ArrayList<>(List.of("sbatch", "--parsable"));
        cmd.addAll(List.of(options));
        cmd.add(batchScript.toString());
        return client(cmd).strip().split(";")[0];
    }

    /** Runs a Slurm client command; its stdout (fails the test on a non-zero exit). */
    public String client(List<String> command) {
        Outcome o = run(command, env);
        if (o.code != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (" + o.code + "): " + o.output);
        }
        return o.output;
    }

    /** {@code scontrol show job}'s field {@code name} (JobState, ExitCode, Restarts...), or "" once it is gone. */
    public String jobField(String job, String name) {
        Outcome o = run(List.of("scontrol", "-o", "show", "job", job), env);
        for (String word : o.output.split("\\s+")) {
            if (word.startsWith(name + "=")) {
                return word.substring(name.length() + 1);
            }
        }
        return "";
    }

    /** Waits until the job has ended (a final state); returns that state, e.g. COMPLETED or FAILED. */
    public String awaitEnd(String job, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            String state = jobField(job, "JobState");
            if (List.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
                    "BOOT_FAIL", "DEADLINE", "PREEMPTED").contains(state)) {
                return state;
            }
            Thread.sleep(250);
        }
        client(List.of("scancel", job));
        throw new AssertionError("job " + job + " did not end within " + limit + " (state "
                + jobField(job, "JobState") + ")");
    }

    /** Once the (requeued) job is pending again, lets it start now rather than at its begin time. */
    public void startWhenPending(String job, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!jobField(job, "JobState").equals("PENDING")) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + job + " was not pending again within " + limit);
            }
            Thread.sleep(100);
        }
        client(List.of("scontrol", "update", "jobid=" + job, "starttime=now"));
    }

    /** Waits until the job runs. */
    public void awaitRunning(String job, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!jobField(job, "JobState").equals("RUNNING")) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + job + " did not start within " + limit);
            }
            Thread.sleep(100);
        }
    }

    /** Node {@code node} fails: every process on it (slurmd, the job's) SIGKILLed, and Slurm told it is down. */
    public void crash(String node) {
        Outcome o = run(List.of(script.toString(), "crash", dir.toString(), node), Map.of());
        if (o.code != 0) {
            throw new IllegalStateException("slurm-cluster.sh crash failed: " + o.output);
        }
        client(List.of("scontrol", "update", "nodename=" + node, "state=down", "reason=test-crash"));
    }

    /** Node {@code node} back after a crash: its slurmd started again, and Slurm told it may run jobs. */
    public void restartNode(String node) {
        Outcome o = run(List.of(script.toString(), "restart", dir.toString(), node), Map.of());
        if (o.code != 0) {
            throw new IllegalStateException("slurm-cluster.sh restart failed: " + o.output);
        }
    }

    /** The cluster's logs, for a failure message. */
    public String logs() {
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(dir.resolve("log"))) {
            for (Path f : files.sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                b.append("--- ").append(f.getFileName()).append('\n');
                lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> b.append(l).append('\n'));
            }
        } catch (IOException e) {
            b.append("(no logs: ").append(e.getMessage()).append(")");
        }
        return b.toString();
    }

    @Override
    public void close() {
        remove();
        try {
            Runtime.getRuntime().removeShutdownHook(atExit);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs remove(), which does nothing the second time
        }
    }

    private synchronized void remove() {
        if (down) {
            return;
        }
        down = true;
        Outcome o = run(List.of(script.toString(), "down", dir.toString()), Map.of());
        if (o.code != 0) {
            System.err.println("slurm-cluster.sh down failed: " + o.output);
        }
    }

    private record Outcome(int code, String output) {}

    private static Outcome run(List<String> command, Map<String, String> env) {
        Path out = null;
        try {
            out = Files.createTempFile("slurm-cluster", ".out");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Outcome(-1, String.join(" ", command) + " timed out");
            }
            return new Outcome(p.exitValue(), Files.readString(out));
        } catch (IOException e) {
            return new Outcome(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(-1, "interrupted");
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temporary file left
                }
            }
        }
    }
}

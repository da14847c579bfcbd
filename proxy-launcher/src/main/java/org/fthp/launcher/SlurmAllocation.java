package org.fthp.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fthp-run inside a Slurm allocation ({@code sbatch}/{@code salloc}: {@code SLURM_JOB_ID} set) with no host list of
 * its own: the hosts are the allocation's nodes, each with the tasks Slurm gives it as slots; coordinators start
 * through Slurm steps ({@code scripts/fthp-srun-agent.sh}, {@code srun --overlap}), not ssh; mpirun's own orted step
 * gets {@code --no-kill}, so a failed node does not take every node's daemons with it. Which nodes are alive is
 * asked of Slurm ({@code sinfo}), never taken from the batch environment, which does not change.
 */
final class SlurmAllocation {

    static final String JOB_ENV = "SLURM_JOB_ID";
    private static final long COMMAND_SECONDS = 20;
    private static final Pattern TASKS = Pattern.compile("(\\d+)(?:\\(x(\\d+)\\))?");
    /** sinfo's node states of a node that cannot run anything. */
    private static final Pattern DEAD_STATE = Pattern.compile("down|drain|drng|fail|maint|unk|no_respond|.*\\*$");

    private final String jobId;
    private final Map<String, String> env;

    private SlurmAllocation(String jobId, Map<String, String> env) {
        this.jobId = jobId;
        this.env = env;
    }

    /** The allocation fthp-run runs in, or null outside one. */
    static SlurmAllocation of(Map<String, String> env) {
        String id = env.get(JOB_ENV);
        return id == null || id.isBlank() || env.get("SLURM_JOB_NODELIST") == null ? null
                : new SlurmAllocation(id.strip(), env);
    }

    String jobId() {
        return jobId;
    }

    /** The allocation's nodes, in Slurm's order, each with its task count as slots. */
    HostList hosts() throws LaunchException {
        List<String> names = run(List.of("scontrol", "show", "hostnames", env.get("SLURM_JOB_NODELIST")));
        String perNode = env.getOrDefault("SLURM_TASKS_PER_NODE", env.getOrDefault("SLURM_JOB_CPUS_PER_NODE", ""));
        List<Integer> slots = expandCounts(perNode);
        List<HostList.Host> hosts = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            hosts.add(new HostList.Host(names.get(k), k < slots.size() ? slots.get(k) : 1));
        }
        return new HostList(hosts);
    }

    /** Slurm's run-length counts, {@code 2(x3),1}: 2, 2, 2, 1. */
    static List<Integer> expandCounts(String counts) {
        List<Integer> out = new ArrayList<>();
        for (String part : counts.split(",")) {
            Matcher m = TASKS.matcher(part.strip());
            if (!m.matches()) {
                continue;
            }
            int times = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            for (int i = 0; i < times; i++) {
                out.add(Integer.parseInt(m.group(1)));
            }
        }
        return out;
    }

    /** The nodes among {@code names} that Slurm says are down, drained, failing or not responding. */
    Set<String> deadNodes(List<String> names) {
        Set<String> dead = new java.util.TreeSet<>();
        try {
            for (String line : run(List.of("sinfo", "-h", "-N", "-n", String.join(",", names), "-o", "%N %t"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 2 && DEAD_STATE.matcher(f[1]).matches()) {
                    dead.add(f[0]);
                }
            }
        } catch (LaunchException e) {
            System.err.println("fthp-run: cannot ask Slurm which nodes are alive (" + e.getMessage()
                    + "); going by the coordinators");
        }
        return dead;
    }

    /**
     * A hint when the job may not survive a node: Slurm ends the whole allocation at a node failure unless the
     * job was submitted with {@code --no-kill}, which is visible only in the batch script (or as SLURM_NO_KILL).
     */
    void hintWithoutNoKill() {
        if (env.containsKey("SLURM_NO_KILL")) {
            return;
        }
        try {
            for (String line : run(List.of("scontrol", "write", "batch_script", jobId, "-"))) {
                String l = line.strip();
                if (l.startsWith("#SBATCH") && (l.contains("--no-kill") || l.matches("#SBATCH\\s+-k\\b.*"))) {
                    return;
                }
            }
        } catch (LaunchException e) {
            // salloc has no batch script: the hint below holds
        }
        System.err.println("fthp-run: hint: Slurm ends this job at the first node failure unless it was submitted"
                + " with --no-kill (#SBATCH --no-kill, or export SLURM_NO_KILL=1 in the batch script)");
    }

    /** mpirun's options under Slurm: its orted step must survive a failed node. */
    static List<String> mpirunArgs() {
        return List.of("--mca", "plm_slurm_args", "--no-kill");
    }

    /** The remote agent that runs a coordinator on a node: a Slurm step. */
    static RemoteAgent agent(Path home) {
        return new RemoteAgent(List.of(home.resolve("scripts/fthp-srun-agent.sh").toString()));
    }

    private List<String> run(List<String> command) throws LaunchException {
        Path out = null;
        try {
            // into a file, so a command that hangs is given up on after the timeout, never read from for ever
            out = java.nio.file.Files.createTempFile("fthp-slurm", ".out");
            ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process p = pb.start();
            if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw LaunchException.environment(String.join(" ", command) + " did not answer within "
                        + COMMAND_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw LaunchException.environment(String.join(" ", command) + " failed (exit " + p.exitValue() + ")");
            }
            return java.nio.file.Files.readString(out, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank())
                    .toList();
        } catch (IOException e) {
            throw LaunchException.environment("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LaunchException.environment("interrupted while running " + command.get(0));
        } finally {
            if (out != null) {
                try {
                    java.nio.file.Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temporary file left behind
                }
            }
        }
    }

    /** For --verbose. */
    Map<String, String> describe() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("job", jobId);
        d.put("nodes", env.get("SLURM_JOB_NODELIST"));
        return d;
    }
}

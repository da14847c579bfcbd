package org.fthp.launcher.inject;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import org.fthp.launcher.Poll;
import org.fthp.model.failure.Weibull;

/**
 * Kills rank processes with SIGKILL as the plan says, on its own daemon
 * thread, and logs each kill (JSON lines, the same file the primary
 * coordinator logs detected failures to). Deterministic kills fire at their
 * times; Weibull kills pick a random live rank process at each arrival.
 *
 * <p>Ranks are mapped to copies by the launch layout: native rank r &lt; N is
 * the computational copy of logical r, native N + j the replica of logical j.
 */
public final class FailureInjector {

    private final KillPlan plan;
    private final int logicalRanks;
    private final int processes;
    private final Optional<Path> events;
    private final Optional<Path> readyDir;
    /** Where the rank processes are found and killed: null for this host's, under the launcher. */
    private final Targets targets;
    /** The event log, open for the job once the thread starts (appending); null without one. */
    private FileChannel eventLog;

    /**
     * The rank processes of a job wherever they run (several hosts: through each host's coordinator), by native
     * rank.
     */
    public interface Targets {
        /** Whether every one of {@code processes} has registered with its coordinator (kill times count from then). */
        boolean allReady(int processes);

        /** Native ranks believed alive. */
        java.util.Set<Integer> live();

        /** SIGKILLs native rank {@code nativeRank} where it runs; its pid, or empty if no live process had it. */
        java.util.OptionalLong kill(int nativeRank);
    }

    public FailureInjector(KillPlan plan, int logicalRanks, int processes, Optional<Path> events,
                           Optional<Path> readyDir) {
        this(plan, logicalRanks, processes, events, readyDir, null);
    }

    /** With the processes found and killed by {@code targets} (several hosts) rather than under the launcher. */
    public FailureInjector(KillPlan plan, int logicalRanks, int processes, Optional<Path> events, Targets targets) {
        this(plan, logicalRanks, processes, events, Optional.empty(), targets);
    }

    private FailureInjector(KillPlan plan, int logicalRanks, int processes, Optional<Path> events,
                            Optional<Path> readyDir, Targets targets) {
        this.plan = plan;
        this.logicalRanks = logicalRanks;
        this.processes = processes;
        this.events = events;
        this.readyDir = readyDir;
        this.targets = targets;
    }

    /** Starts injecting into the job under {@code launcher}; stops by itself when the job ends. */
    public Thread start(ProcessHandle launcher) {
        Thread t = new Thread(() -> run(launcher), "fthp-run-failure-injector");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void run(ProcessHandle launcher) {
        warmUp();
        try {
            inject(launcher);
        } finally {
            closeEventLog();
        }
    }

    private void inject(ProcessHandle launcher) {
        if (!awaitReady(launcher)) {
            return;
        }
        long start = System.nanoTime();
        List<KillPlan.ScheduledKill> pending = new ArrayList<>(plan.kills());
        pending.sort(Comparator.comparingDouble(KillPlan.ScheduledKill::atSeconds));
        // one seeded stream for the intervals and the choice of victim: the same seed repeats the same failures
        Weibull weibull = plan.weibull().map(w -> new Weibull(w.systemMtbf(processes), w.shape())).orElse(null);
        SplittableRandom random = plan.weibull().map(w -> new SplittableRandom(w.seed())).orElse(null);
        double nextRandom = weibull == null ? Double.POSITIVE_INFINITY : weibull.sample(random);
        while (launcher.isAlive()) {
            double now = (System.nanoTime() - start) / 1e9;
            if (!pending.isEmpty() && pending.get(0).atSeconds() <= now) {
                KillPlan.ScheduledKill k = pending.remove(0);
                int nativeRank = k.spare() ? processes + k.logicalRank()
                        : k.replica() ? logicalRanks + k.logicalRank() : k.logicalRank();
                kill(launcher, nativeRank, "scheduled kill " + (k.spare() ? "spare:" + k.logicalRank()
                        : k.logicalRank() + (k.replica() ? ":rep" : ":cmp")) + "@" + k.atSeconds());
                continue;
            }
            if (nextRandom <= now) {
                java.util.Set<Integer> live = targets != null ? targets.live() : RankProcesses.of(launcher).keySet();
                if (!live.isEmpty()) {
                    List<Integer> ranks = new ArrayList<>(new java.util.TreeSet<>(live));
                    kill(launcher, ranks.get(random.nextInt(ranks.size())), "weibull");
                }
                nextRandom += weibull.sample(random);
                continue;
            }
            double until = Math.min(nextRandom, pending.isEmpty() ? Double.POSITIVE_INFINITY : pending.get(0).atSeconds());
            long waitMs = (long) Math.max(1, Math.min(200, (until - now) * 1000));
            if (Poll.within(() -> !launcher.isAlive(), waitMs) || Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }

    /**
     * Kill times count from the moment every process has finished MPI_Init
     * and registered with its coordinator (each leaves a {@code ready-N}
     * file in the job's statistics directory): a process killed before it
     * registered could not be told apart from one still starting.
     */
    private boolean awaitReady(ProcessHandle launcher) {
        if (targets != null) {
            Poll.until(() -> !launcher.isAlive() || targets.allReady(processes), Poll.NEVER);
            return launcher.isAlive() && !Thread.currentThread().isInterrupted();
        }
        if (readyDir.isEmpty()) {
            return true;
        }
        Poll.until(() -> !launcher.isAlive() || readyFiles() >= processes, Poll.NEVER);
        return launcher.isAlive() && !Thread.currentThread().isInterrupted();
    }

    /** How many processes have left their ready file; unreadable counts as all (kill times count from now). */
    private long readyFiles() {
        try (var files = Files.list(readyDir.get())) {
            return files.filter(f -> f.getFileName().toString().startsWith("ready-")).count();
        } catch (IOException e) {
            return processes;
        }
    }

    private void kill(ProcessHandle launcher, int nativeRank, String cause) {
        if (targets != null) {
            killThrough(nativeRank, cause);
            return;
        }
        ProcessHandle target = RankProcesses.of(launcher).get(nativeRank);
        if (target == null) {
            System.err.println("fthp-run: no live process for native rank " + nativeRank + " (" + cause + ")");
            return;
        }
        // built before the signal: this JVM's first run of that concatenation links it, CPU time the survivors,
        // repairing on the same cores, would pay
        String said = "fthp-run: injected failure: killed native rank " + nativeRank + " (pid " + target.pid()
                + ", " + cause + ")";
        // the kill's time is read last before the signal: the recovery benchmark counts every step from it. The
        // line is logged before the signal (the primary logs the detection to the same file, after it), built and
        // written by code warmUp has already run
        Instant at = Instant.now();
        log(injectedLine(at, target.pid(), nativeRank, cause));
        target.destroyForcibly();   // SIGKILL
        System.err.println(said);
    }

    /** Several hosts: the rank's own host's coordinator kills it; logged after, with the pid it names. */
    private void killThrough(int nativeRank, String cause) {
        Instant at = Instant.now();
        java.util.OptionalLong pid = targets.kill(nativeRank);
        if (pid.isEmpty()) {
            System.err.println("fthp-run: no live process for native rank " + nativeRank + " (" + cause + ")");
            return;
        }
        // the time is the moment the kill was asked for: the detection may already be logged after it
        log(injectedLine(at, pid.getAsLong(), nativeRank, cause));
        System.err.println("fthp-run: injected failure: killed native rank " + nativeRank + " (pid "
                + pid.getAsLong() + " on its host, " + cause + ")");
    }

    /** The event line of a kill. */
    private String injectedLine(Instant at, long pid, int nativeRank, String cause) {
        boolean replica = nativeRank >= logicalRanks;
        int logical = replica ? nativeRank - logicalRanks : nativeRank;
        return "{\"time\":\"" + at + "\",\"event\":\"failure-injected\",\"pid\":" + pid
                + ",\"nativeRank\":" + nativeRank + ",\"logicalRank\":" + logical + ",\"role\":\""
                + (replica ? "REP" : "CMP") + "\",\"cause\":\"" + cause + "\"}";
    }

    /**
     * Runs what lies between a kill's time and its signal once before the first kill, and opens the event log
     * for the job: the line's first build links its string concatenation and formats the first Instant, and a
     * log kept open makes each line one write. Cold, with the file opened per line, milliseconds would lie between
     * the time logged and the signal, all counted as recovery.
     */
    private void warmUp() {
        lineBytes(injectedLine(Instant.now(), 0, 0, "warm-up"));
        if (events.isPresent()) {
            try {
                eventLog = FileChannel.open(events.get(), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
            } catch (IOException e) {
                System.err.println("fthp-run: cannot write " + events.get() + ": " + e.getMessage());
            }
        }
    }

    private void log(String line) {
        if (eventLog == null) {
            return;
        }
        // one write per line, appended: safe beside the primary coordinator writing the same file
        ByteBuffer bytes = lineBytes(line);
        try {
            while (bytes.hasRemaining()) {
                eventLog.write(bytes);
            }
        } catch (IOException e) {
            System.err.println("fthp-run: cannot write " + events.get() + ": " + e.getMessage());
        }
    }

    private static ByteBuffer lineBytes(String line) {
        return StandardCharsets.UTF_8.encode(line + System.lineSeparator());
    }

    private void closeEventLog() {
        if (eventLog != null) {
            try {
                eventLog.close();
            } catch (IOException e) {
                // every line was written by then
            }
        }
    }
}

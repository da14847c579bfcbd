package org.fthp.launcher;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import org.fthp.launcher.inject.FailureInjector;
import org.fthp.launcher.inject.KillPlan;

/**
 * {@code --restart K}: runs the native job and, each time the coordinators end it because a rank lost every copy
 * (or a process died before registering), ends what is left of it, starts a new incarnation on the same
 * coordinators (their failure state cleared, their committed checkpoint pieces kept, M set to
 * {@code --restart-replicas} if given) and relaunches mpirun with the incarnation number and the epoch to recover in
 * the ranks' environment; at most K times, then exit 4 as without restarts. One line on stderr marks each restart,
 * and the events log gets a job-restarted event.
 *
 * <p>Injected failures: --kill's deterministic kills belong to the first run only (they would otherwise kill the
 * same copy at the same point of every incarnation); Weibull injection goes on in every incarnation, with the seed
 * advanced so each draws its own kills.
 */
final class RestartLoop {
    private static final long END_SECONDS = 15;

    private final LaunchOptions options;
    private final IntFunction<List<String>> commandFor;
    private final Map<String, String> jobEnv;
    private final Coordinators coordinators;
    /** Where the job started: an earlier job's epoch it resumed, or none. */
    private final ResumePoint start;
    /** Told of each incarnation's mpirun; null without a checkpoint directory. */
    private final StopOnSignal stop;

    RestartLoop(LaunchOptions options, IntFunction<List<String>> commandFor, Map<String, String> jobEnv,
                Coordinators coordinators) {
        this(options, commandFor, jobEnv, coordinators, ResumePoint.FRESH, null);
    }

    RestartLoop(LaunchOptions options, IntFunction<List<String>> commandFor, Map<String, String> jobEnv,
                Coordinators coordinators, ResumePoint start, StopOnSignal stop) {
        this.options = options;
        this.commandFor = commandFor;
        this.jobEnv = jobEnv;
        this.coordinators = coordinators;
        this.start = start;
        this.stop = stop;
    }

    int run(FailureInjector firstInjector) throws LaunchException {
        CheckpointPlan plan = options.checkpoint();
        long restartEpoch = start.epoch();
        long firstEpoch = start.firstEpoch();
        long abortedAt = 0;
        Restarting pending = null;
        for (int incarnation = 0; ; incarnation++) {
            int replicas = plan.replicasOf(incarnation, options.replicas());
            jobEnv.put(MpirunCommand.REPLICAS_ENV, Integer.toString(replicas));
            jobEnv.put(MpirunCommand.CHECKPOINT_RESTART_ENV, Integer.toString(incarnation + (start.resumes() ? 1 : 0)));
            jobEnv.put(MpirunCommand.CHECKPOINT_EPOCH_ENV, Long.toString(restartEpoch));
            jobEnv.put(MpirunCommand.CHECKPOINT_FIRST_EPOCH_ENV, Long.toString(firstEpoch));
            if (incarnation > 0 && jobEnv.containsKey(MpirunCommand.KILL_AT_CALL_ENV)) {
                jobEnv.put(MpirunCommand.KILL_AT_CALL_ENV, "");
            }
            if (incarnation > 0) {
                forgetReadyMarks();
            }
            FailureInjector injector = incarnation == 0 ? firstInjector : laterInjector(incarnation, replicas);
            boolean lastChance = incarnation >= plan.restarts();
            if (pending != null) {
                restarted(pending, (System.nanoTime() - abortedAt) / 1e9);
            }
            long launchedAt = System.nanoTime();
            AtomicReference<JobProcesses> processes = new AtomicReference<>();
            AtomicLong abortSeen = new AtomicLong();
            CompletableFuture<Void> ended = new CompletableFuture<>();
            int code = MpirunJob.run(commandFor.apply(replicas), jobEnv, () -> abortSeen.get() != 0, job -> {
                processes.set(JobProcesses.watch(job));
                if (stop != null) {
                    stop.running(job);
                }
                if (injector != null) {
                    injector.start(job.toHandle());
                }
                coordinators.onAbort(line -> {
                    if (stop != null && stop.stopped()) {
                        ended.complete(null);
                        return;
                    }
                    abortSeen.set(System.nanoTime());
                    try {
                        if (lastChance || FthpRun.programExitCode(line).isPresent()) {
                            FthpRun.endJob(job, line);
                        } else {
                            processes.get().killNow(job);
                        }
                    } finally {
                        ended.complete(null);
                    }
                });
            });
            trace("mpirun ended " + code, abortSeen.get());
            if (stop != null && stop.stopped()) {
                if (processes.get() != null) {
                    processes.get().endSurvivors();
                }
                return StopOnSignal.EXIT_STOPPED;
            }
            // the abort decides, not mpirun's code: a job ended for a restart may well exit 0 (the proxy reports
            // the ranks killed for it as clean exits); a failing mpirun may have seen the death before the abort
            boolean aborted = abortSeen.get() != 0
                    || ((code != 0 || !FthpRun.completed(jobEnv, options.ranks()))
                        && coordinators.awaitAbort(FthpRun.ABORT_GRACE_SECONDS));
            if (!aborted) {
                return code;
            }
            try {
                ended.get(END_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                // mpirun is gone anyway; whatever it left is ended below
            }
            trace("endJob done", abortSeen.get());
            int survivors = processes.get() == null ? 0 : processes.get().endSurvivors();
            trace("survivors ended " + survivors, abortSeen.get());
            String abortLine = coordinators.abortLine().orElse("");
            java.util.OptionalInt programCode = FthpRun.programExitCode(abortLine);
            boolean sdcRollback = SdcReport.detected(abortLine) && !lastChance
                    && !"abort".equals(jobEnv.get(SdcOptions.MODE_ENV));
            if (SdcReport.detected(abortLine)) {
                SdcReport.event(abortLine, options.coordinators().events(), sdcRollback ? "rollback" : "abort");
            }

            if (programCode.isPresent() && !sdcRollback) {
                return programCode.getAsInt();   // the program's own verdict: a restart would end the same way
            }
            if (lastChance) {
                return FthpRun.EXIT_RANK_LOST;
            }
            int nextReplicas = plan.replicasOf(incarnation + 1, options.replicas());
            Coordinators.RestartPoint point = coordinators.newIncarnation(nextReplicas,
                    new Coordinators.RestartPoint(start.epoch(), start.firstEpoch()));
            restartEpoch = point.epoch();
            firstEpoch = point.firstEpoch();
            if (sdcRollback && jobEnv.containsKey(RankOutputRelay.DIR_ENV)) {
                // what followed the restart epoch was never printed: the rerun prints it again from there
                RankOutputRelay.truncateToEpoch(Path.of(jobEnv.get(RankOutputRelay.DIR_ENV)), replicas, restartEpoch);
            }
            trace("coordinators reset", abortSeen.get());
            abortedAt = abortSeen.get() != 0 ? abortSeen.get() : System.nanoTime();
            OptionalLong lastCommit = coordinators.checkpoints().lastCommitNanos();
            long workFrom = restartEpoch >= 0 && lastCommit.isPresent()
                    ? Math.max(lastCommit.getAsLong(), launchedAt) : launchedAt;
            pending = new Restarting(incarnation + 1, restartEpoch, lostRank(abortLine), abortLine,
                    Math.max(0, abortedAt - workFrom) / 1e9, nextReplicas, survivors);
            System.err.println(notice(pending));
        }
    }

    private static void trace(String what, long since) {
        if (since != 0 && System.getenv("FTHP_TRACE_RESTART") != null) {
            System.err.printf("fthp-run: restart trace: %s at %.3f s after the abort%n", what,
                    (System.nanoTime() - since) / 1e9);
        }
    }

    /** A restart decided, reported once its relaunch is under way. */
    private record Restarting(int number, long epoch, int lostRank, String abortLine, double lostWorkSeconds,
                              int replicas, int survivorsEnded) {}

    private String notice(Restarting r) {
        String what = SdcReport.detected(r.abortLine()) ? "the twins of rank " + r.lostRank() + " differ (silent data"
                + " corruption), rolled back"
                : r.lostRank() >= 0 ? "rank " + r.lostRank() + " lost every copy"
                : "a process died before it registered";
        String from = r.epoch() >= 0 ? "from checkpoint epoch " + r.epoch()
                : "from the beginning (no checkpoint was committed)";
        return "fthp-run: restart " + r.number() + " of " + options.checkpoint().restarts() + ": " + what
                + "; relaunching " + (options.ranks() + r.replicas()) + " processes (" + options.ranks() + " ranks, "
                + r.replicas() + " replicas) " + from;
    }

    private void restarted(Restarting r, double restartSeconds) {
        coordinators.checkpoints().restarted(new CheckpointReport.Restart(r.number(), r.epoch(), r.lostRank(),
                r.lostWorkSeconds(), restartSeconds));
        Optional<Path> events = options.coordinators().events();
        if (events.isEmpty()) {
            return;
        }
        String line = String.format(Locale.ROOT, "{\"time\":\"%s\",\"event\":\"job-restarted\",\"restart\":%d,"
                        + "\"epoch\":%d,%s\"lostWorkSeconds\":%.3f,\"restartSeconds\":%.3f,\"replicas\":%d}",
                Instant.now(), r.number(), r.epoch(), r.lostRank() >= 0 ? "\"logicalRank\":" + r.lostRank() + "," : "",
                r.lostWorkSeconds(), restartSeconds, r.replicas());
        // one write per line, appended, like the injector and the primary writing the same file
        try (BufferedWriter out = Files.newBufferedWriter(events.get(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            out.write(line + System.lineSeparator());
        } catch (IOException e) {
            System.err.println("fthp-run: cannot write " + events.get() + ": " + e.getMessage());
        }
    }

    /**
     * The ranks mark the end of their MPI_Init with {@code ready-*} files in the statistics directory, and the
     * injector waits for all of them: the previous incarnation's must not count for the next.
     */
    private void forgetReadyMarks() {
        String stats = jobEnv.get(MpirunCommand.STATS_DIR_ENV);
        if (stats == null) {
            return;
        }
        try (var files = Files.list(Path.of(stats))) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("ready-")).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            System.err.println("fthp-run: cannot clear " + stats + ": " + e.getMessage());
        }
    }

    private FailureInjector laterInjector(int incarnation, int replicas) {
        Optional<KillPlan.Weibull> weibull = options.kills().weibull();
        if (weibull.isEmpty()) {
            return null;
        }
        KillPlan.Weibull w = weibull.get();
        KillPlan later = new KillPlan(List.of(), List.of(),
                Optional.of(new KillPlan.Weibull(w.mtbfSeconds(), w.perProcess(), w.shape(), w.seed() + incarnation)));
        int processes = options.ranks() + replicas;
        return new FailureInjector(later, options.ranks(), processes, options.coordinators().events(),
                Optional.ofNullable(jobEnv.get(MpirunCommand.STATS_DIR_ENV)).map(Path::of));
    }

    /** The {@code rank=R} of the primary's abort line; -1 when the process that ended the job had no rank. */
    static int lostRank(String abortLine) {
        String rank = CheckpointReport.fields(abortLine).get("rank");
        try {
            return rank == null ? -1 : Integer.parseInt(rank);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

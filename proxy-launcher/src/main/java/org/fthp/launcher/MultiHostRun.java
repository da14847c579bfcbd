package org.fthp.launcher;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.fthp.launcher.inject.FailureInjector;

/**
 * A job with coordinators on several hosts ({@link MultiHostLaunch}), run to its end, and with {@code --restart K}
 * relaunched when a rank loses every copy: on the hosts still alive (those the coordinators did not lose, spares
 * included, as SCR's scr_srun excludes failed nodes), with a new placement, a new coordinator set and a new mpirun,
 * from the newest usable epoch of the checkpoint directory (the coordinators that held pieces in memory are gone
 * with the old set; without a directory the job starts from the beginning). The ranks' output goes through one
 * {@link RankOutputSink} for the whole run, which knows how far each rank's output got, so a relaunched rank
 * prints only what is new. Too few hosts left: exit 4 with the reason.
 */
final class MultiHostRun {

    /** How long the coordinators' lost-host lines may trail their abort. */
    private static final long LOST_HOST_GRACE_MILLIS = 1_000;

    private final LaunchOptions asked;
    private final UserProgram program;
    private final LaunchHost host;
    private final Map<String, String> env;
    private final Map<String, String> jobEnv;
    private final String secret = Coordinators.newSecret();
    /** SIGUSR1/SIGTERM with a checkpoint directory: checkpoint, then end (null without a directory). */
    private final StopOnSignal stop;
    private final SdcOptions sdc;

    private MultiHostRun(LaunchOptions asked, UserProgram program, LaunchHost host, Map<String, String> env,
                         Map<String, String> jobEnv, SdcOptions sdc) {
        this.asked = asked;
        this.sdc = sdc;
        this.program = program;
        this.host = host;
        this.env = env;
        this.jobEnv = jobEnv;
        this.stop = asked.checkpoint().directory().isPresent() ? StopOnSignal.install(null, System.err) : null;
    }

    static int run(MultiHostLaunch first, LaunchOptions asked, UserProgram program, LaunchHost host,
                   Map<String, String> env, Map<String, String> jobEnv, ResumePoint start, SdcOptions sdc)
            throws LaunchException {
        return new MultiHostRun(asked, program, host, env, jobEnv, sdc).run(first, start);
    }

    /** One incarnation's end: its exit code, and whether a relaunch may help. */
    private record Outcome(int code, boolean rankLost, String abortLine, Set<Integer> lostNodes, long abortNanos) {}

    private int run(MultiHostLaunch first, ResumePoint start) throws LaunchException {
        CheckpointPlan plan = asked.checkpoint();
        try (RunSummary summary = RunSummary.create(asked.ranks(), asked.replicas())) {
            String jobDir = summary.directory().toString();
            jobEnv.put(MpirunCommand.STATS_DIR_ENV, jobDir);
            jobEnv.put(RankOutputRelay.DIR_ENV, jobDir);
            // with a checkpoint directory, how far each stream is printed is kept there: a later job goes on from it
            PrintedPositions printed = null;
            if (plan.directory().isPresent()) {
                try {
                    printed = PrintedPositions.open(plan.directory().get().toAbsolutePath()
                            .resolve(CheckpointResume.OUTPUT_DIR), asked.ranks());
                } catch (java.io.IOException e) {
                    throw LaunchException.environment("cannot keep the output positions in "
                            + plan.directory().get() + ": " + e.getMessage());
                }
            }
            try (PrintedPositions kept = printed;
                 RankOutputSink output = RankOutputSink.start(first.launchAddress(), secret, asked.ranks(),
                    System.out, System.err, printed, start.outputContinues())) {
                jobEnv.put(RankOutputSink.ADDRESS_ENV, output.address());
                MultiHostLaunch hosts = first;
                ResumePoint from = start;
                for (int incarnation = 0; ; incarnation++) {
                    int replicas = plan.replicasOf(incarnation, asked.replicas());
                    if (plan.wanted()) {
                        jobEnv.put(MpirunCommand.CHECKPOINT_RESTART_ENV,
                                Integer.toString(incarnation + (start.resumes() ? 1 : 0)));
                        jobEnv.put(MpirunCommand.CHECKPOINT_EPOCH_ENV, Long.toString(from.epoch()));
                        jobEnv.put(MpirunCommand.CHECKPOINT_FIRST_EPOCH_ENV, Long.toString(from.firstEpoch()));
                    }
                    jobEnv.put(MpirunCommand.REPLICAS_ENV, Integer.toString(replicas));
                    if (incarnation > 0 && jobEnv.containsKey(MpirunCommand.KILL_AT_CALL_ENV)) {
                        jobEnv.put(MpirunCommand.KILL_AT_CALL_ENV, "");
                    }
                    boolean lastChance = incarnation >= plan.restarts();
                    Outcome o = runOnce(hosts, replicas, incarnation, summary.directory(), lastChance);
                    if (stop != null && stop.stopped()) {
                        printSummary(summary);
                        return StopOnSignal.EXIT_STOPPED;
                    }
                    if (lastChance || !o.rankLost()) {
                        printSummary(summary);
                        return o.code();
                    }
                    int nextReplicas = plan.replicasOf(incarnation + 1, asked.replicas());
                    MultiHostLaunch next;
                    try {
                        next = hosts.without(o.lostNodes(), asked.ranks(), nextReplicas, asked.mapReplicas());
                    } catch (LaunchException e) {
                        System.err.println("fthp-run: " + e.getMessage());
                        printSummary(summary);
                        return e.exitCode();
                    }
                    from = plan.directory().isPresent()
                            ? CheckpointResume.onDisk(plan.directory().get(), from.firstEpoch(), System.err)
                            : new ResumePoint(-1, from.firstEpoch(), true);
                    List<String> lostNames = new java.util.ArrayList<>();
                    for (int k : o.lostNodes()) {
                        lostNames.add(hosts.hostNames().get(k));
                    }
                    System.err.println("fthp-run: restart " + (incarnation + 1) + " of " + plan.restarts() + ": "
                            + what(o.abortLine()) + (lostNames.isEmpty() ? "" : " (hosts lost: "
                            + String.join(",", lostNames) + ")") + "; relaunching " + (asked.ranks() + nextReplicas)
                            + " processes (" + asked.ranks() + " ranks, " + nextReplicas + " replicas) on "
                            + next.hostsOption() + " "
                            + (from.epoch() >= 0 ? "from checkpoint epoch " + from.epoch()
                                    : "from the beginning (no checkpoint on disk)")
                            + String.format(" %.2f s after the abort", (System.nanoTime() - o.abortNanos()) / 1e9));
                    hosts = next;
                }
            } catch (java.io.IOException e) {
                throw LaunchException.environment("cannot keep the output positions: " + e.getMessage());
            }
        }
    }

    private void printSummary(RunSummary summary) {
        summary.print(System.err);
        SdcReport.print(summary.directory(), asked, sdc, System.err);
    }

    private static String what(String abortLine) {
        int rank = RestartLoop.lostRank(abortLine);
        return rank >= 0 ? "rank " + rank + " lost every copy" : "a process died before it registered";
    }

    private Outcome runOnce(MultiHostLaunch hosts, int replicas, int incarnation, Path jobDirPath,
                            boolean lastChance) throws LaunchException {
        String jobDir = jobDirPath.toString();
        LaunchOptions options = asked.withReplicas(replicas).withMpirunArgs(
                hosts.launcherArgs(asked.mpirunArgs(), jobDirPath, jobDir),
                hosts.coordinatorPlan(asked.coordinators()));
        List<String> command = MpirunCommand.build(options, program, host);
        if (options.verbose()) {
            for (String line : hosts.describe()) {
                System.err.println("fthp-run: " + line);
            }
            System.err.println("fthp-run: " + MpirunCommand.display(command));
        }
        jobEnv.put(MultiHostLaunch.NODE_OF_ENV, hosts.placement().coordinatorOf());
        try (Coordinators coordinators = hosts.startCoordinators(options.coordinators(), options.ranks(),
                replicas, host.java(), host.runtimeJar(), options.checkpoint(), jobDir, secret)) {
            jobEnv.putAll(coordinators.environment());
            // mpirun's own children are this host's ranks; every other host's orted gets the library from the
            // launch agent (fthp-orted.sh) and reports to its own host's coordinator
            jobEnv.put("LD_PRELOAD", FthpHome.proxyLibrary(env, host.mpi()).toString());
            jobEnv.putAll(hosts.launcherEnvironment(jobDir));
            jobEnv.putAll(host.mpi().rankEnvironment(options, env));
            jobEnv.put(FthpRun.PROXY_REPORT_ENV, coordinators.reportPipe(0));
            // mpirun runs in recovery mode here (a lost orted must not end the job), which ignores a rank's
            // non-zero exit: the library reports those too, so one before registering ends the job
            jobEnv.put("FTHP_PROXY_REPORT_EXITS", "1");
            FailureInjector injector = incarnation == 0 && options.kills().injectorWanted()
                    ? new FailureInjector(options.kills(), options.ranks(), options.processes(),
                            options.coordinators().events(), coordinators.killTargets(nodeOfRanks(hosts)))
                    : null;
            AtomicBoolean relaunching = new AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong abortNanos = new java.util.concurrent.atomic.AtomicLong();
            int code = MpirunJob.run(command, jobEnv, () -> coordinators.abortLine().isPresent(), job -> {
                if (stop != null) {
                    stop.running(job, coordinators);
                }
                if (injector != null) {
                    injector.start(job.toHandle());
                }
                coordinators.onAbort(line -> {
                    abortNanos.compareAndSet(0, System.nanoTime());
                    if (stop != null && stop.stopped()) {
                        return;
                    }
                    if (!lastChance && FthpRun.programExitCode(line).isEmpty()) {
                        // relaunched: what is left of this incarnation goes now (mpirun tells its daemons)
                        relaunching.set(true);
                        MpirunJob.stop(job);
                    } else {
                        FthpRun.endJob(job, line);
                    }
                });
                coordinators.onHostLost(what -> hosts.hostLost(what, jobDir));
                coordinators.onProcessesEnded(() -> FthpRun.endAfterHostLoss(job, host.mpi()));
            });
            boolean aborted = code != 0 ? coordinators.awaitAbort(FthpRun.ABORT_GRACE_SECONDS)
                    : coordinators.abortLine().isPresent();
            String abortLine = coordinators.abortLine().orElse("");
            if (aborted && FthpRun.programExitCode(abortLine).isEmpty() && !lastChance) {
                try {
                    Thread.sleep(LOST_HOST_GRACE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new Outcome(FthpRun.EXIT_RANK_LOST, true, abortLine, coordinators.lostNodes(),
                        abortNanos.get() != 0 ? abortNanos.get() : System.nanoTime());
            }
            if (aborted) {
                if (SdcReport.detected(abortLine)) {
                    // a difference between twins is not rolled back across hosts: the job ends as under --sdc abort
                    SdcReport.event(abortLine, options.coordinators().events(), "abort");
                }
                code = FthpRun.programExitCode(abortLine).orElse(FthpRun.EXIT_RANK_LOST);
            } else if (coordinators.processesEnded()) {
                // mpirun was ended by us: every process had finished or failed with its host
                code = 0;
            }
            // the other hosts' ranks left their statistics in their own host's job directory
            coordinators.collectStats(jobDirPath);
            return new Outcome(code, false, abortLine, Set.of(), abortNanos.get());
        }
    }

    /** The coordinator (node = host index) of each native rank. */
    private static int[] nodeOfRanks(MultiHostLaunch hosts) {
        int[] nodes = new int[hosts.placement().processes()];
        for (int r = 0; r < nodes.length; r++) {
            nodes[r] = hosts.placement().hostOf(r);
        }
        return nodes;
    }
}

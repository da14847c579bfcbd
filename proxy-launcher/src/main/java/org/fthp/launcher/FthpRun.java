package org.fthp.launcher;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.fthp.checkpoint.store.JobIdentity;
import org.fthp.launcher.inject.FailureInjector;

/**
 * {@code fthp-run}: launches a Java MPI program on the native MPI through FTHP-J.
 *
 * <p>Started by bin/fthp-run, which finds a JDK 22+ and exports FTHP_HOME and FTHP_JAVA. Checks
 * the command line (exit 2) and the environment (exit 3) before anything starts; then exits
 * with mpirun's own exit code.
 */
public final class FthpRun {

    private FthpRun() {}

    public static void main(String[] args) {
        try {
            System.exit(launch(Arrays.asList(args), System.getenv()));
        } catch (LaunchException e) {
            System.err.println("fthp-run: " + e.getMessage());
            if (e.exitCode() == LaunchException.USAGE) {
                System.err.println("Try 'fthp-run --help'.");
            }
            System.exit(e.exitCode());
        }
    }

    static int launch(List<String> args, Map<String, String> env) throws LaunchException {
        MpiChoice mpiChoice = MpiChoice.extract(args);
        SdcOptions.Extracted sdcOptions = SdcOptions.extract(mpiChoice.rest());
        LaunchOptions options = new LaunchOptionsParser().parse(sdcOptions.rest());
        if (options.helpRequested()) {
            System.out.print(Usage.TEXT);
            return 0;
        }
        SdcOptions sdc = sdcOptions.options();
        sdc.check(options);
        UserProgram program = new UserProgramResolver(Optional.ofNullable(env.get("CLASSPATH"))).resolve(options);

        Path java = JdkCheck.rankJava(env);
        Path runtimeJar = FthpHome.runtimeJar(env);
        Path abi = AbiDescription.ensure(env, java, runtimeJar, mpiChoice.toProbe(env));
        NativeMpi mpi = mpiChoice.resolve(env, AbiDescription.family(abi));
        Path mpirun = MpirunLocator.locate(env, mpi);
        LaunchHost host = new LaunchHost(mpirun, java, runtimeJar,
                RootCheck.runningAsRoot(), Runtime.getRuntime().availableProcessors(), mpi,
                AotCache.find(runtimeJar, java, env));
        ResumePoint start = ResumePoint.FRESH;
        Optional<Path> outputDir = Optional.empty();
        if (options.checkpoint().directory().isPresent()) {
            Path dir = CheckpointDirectory.check(options.checkpoint().directory().get());
            JobIdentity identity = options.appJar().isPresent()
                    ? JobIdentity.ofJar(options.appJar().get(), options.programArgs(), options.ranks())
                    : JobIdentity.ofClass(program.mainClass(), options.programArgs(), options.ranks());
            options = options.withCheckpoint(options.checkpoint().withJob(identity));
            CheckpointResume resume = new CheckpointResume(dir, identity, options.checkpoint().resume(), System.err);
            start = resume.decide(options.coordinators().events());
            outputDir = Optional.of(resume.outputDirectory());
        }

        MultiHostLaunch hosts = MultiHostLaunch.plan(options, env, FthpHome.locate(env), mpi);
        if (hosts != null) {
            return MultiHostRun.run(hosts, options, program, host, env, jobEnvironment(options, abi, start, sdc),
                    start, sdc);
        }
        List<String> command = MpirunCommand.build(options, program, host);
        if (options.verbose()) {
            System.err.println("fthp-run: " + MpirunCommand.display(command));
        }
        Map<String, String> jobEnv = jobEnvironment(options, abi, start, sdc);
        jobEnv.putAll(mpi.rankEnvironment(options, env));
        LaunchOptions launched = options;
        ResumePoint from = start;
        try (RunSummary summary = RunSummary.create(options.ranks(), options.replicas())) {
            jobEnv.put(MpirunCommand.STATS_DIR_ENV, summary.directory().toString());
            int code;
            // a replicated rank's output waits for its twins' agreement when a difference can roll the job back:
            // by a relaunch (--restart) or in place (a checkpointed program in Checkpoint.resilient)
            int verifiedRanks = sdc.rollsBack() && !sdc.mode().equals("off") && options.checkpoint().wanted()
                    ? options.replicas() : 0;
            jobEnv.put(SdcOptions.GATED_RANKS_ENV, Integer.toString(verifiedRanks));
            // with restarts every rank prints through files: a rank's output continues across incarnations
            // with a checkpoint directory the files live there, so a later job resumes the output too
            if (outputDir.isPresent()) {
                jobEnv.put(RankOutputRelay.DIR_ENV, outputDir.get().toString());
                try (PrintedPositions printed = PrintedPositions.open(outputDir.get(), options.ranks());
                     RankOutputRelay output = RankOutputRelay.start(outputDir.get(), options.ranks(),
                        verifiedRanks, System.out, System.err, printed, start.outputContinues())) {
                    code = runJob(launched, env, m -> MpirunCommand.build(launched.withReplicas(m), program, host),
                            jobEnv, java, runtimeJar, mpi, from);
                } catch (java.io.IOException e) {
                    throw LaunchException.environment("cannot keep the output positions in " + outputDir.get()
                            + ": " + e.getMessage());
                }
            } else if (options.replicas() > 0 || options.checkpoint().restarts() > 0) {
                jobEnv.put(RankOutputRelay.DIR_ENV, summary.directory().toString());
                try (RankOutputRelay output = RankOutputRelay.start(summary.directory(), options.ranks(),
                        verifiedRanks, System.out, System.err, null, false)) {
                    code = runJob(launched, env, m -> MpirunCommand.build(launched.withReplicas(m), program, host),
                            jobEnv, java, runtimeJar, mpi, from);
                }
            } else {
                code = runJob(launched, env, m -> command, jobEnv, java, runtimeJar, mpi, from);
            }
            summary.print(System.err);
            SdcReport.print(summary.directory(), options, sdc, System.err);
            return code;
        }
    }

    /** What every rank gets in its environment (through mpirun's -x): the ABI, the job's shape, kills, checkpoints. */
    static Map<String, String> jobEnvironment(LaunchOptions options, Path abi, ResumePoint start, SdcOptions sdc) {
        Map<String, String> jobEnv = new HashMap<>();
        sdc.addTo(jobEnv, options);
        jobEnv.put(MpirunCommand.ABI_ENV, abi.toString());
        jobEnv.put(MpirunCommand.LOGICAL_SIZE_ENV, Integer.toString(options.ranks()));
        jobEnv.put(MpirunCommand.REPLICAS_ENV, Integer.toString(options.replicas()));
        jobEnv.put(MpirunCommand.SHOW_REPLICA_OUTPUT_ENV, options.showReplicaOutput() ? "1" : "0");
        if (options.spares() > 0) {
            jobEnv.put(MpirunCommand.SPARES_ENV, Integer.toString(options.spares()));
        }
        if (!options.kills().callKills().isEmpty()) {
            jobEnv.put(MpirunCommand.KILL_AT_CALL_ENV, options.kills().callKillsByNativeRank(options.ranks()));
        }
        if (options.checkpoint().wanted()) {
            jobEnv.put(MpirunCommand.CHECKPOINT_ENABLED_ENV, "1");
            // a job resuming an earlier one's directory starts as a restart does: recover, print only what is new
            jobEnv.put(MpirunCommand.CHECKPOINT_RESTART_ENV, start.resumes() ? "1" : "0");
            jobEnv.put(MpirunCommand.CHECKPOINT_EPOCH_ENV, Long.toString(start.epoch()));
            jobEnv.put(MpirunCommand.CHECKPOINT_FIRST_EPOCH_ENV, Long.toString(start.firstEpoch()));
            options.checkpoint().directory().ifPresent(
                    dir -> jobEnv.put(MpirunCommand.CHECKPOINT_DIR_ENV, dir.toAbsolutePath().toString()));
        }
        return jobEnv;
    }

    private static int runJob(LaunchOptions options, Map<String, String> env,
                              java.util.function.IntFunction<List<String>> commandFor,
                              Map<String, String> jobEnv, Path java, Path runtimeJar, NativeMpi mpi,
                              ResumePoint start) throws LaunchException {
        List<String> command = commandFor.apply(options.replicas());
        FailureInjector injector = options.kills().injectorWanted()
                ? new FailureInjector(options.kills(), options.ranks(), options.processes(),
                        options.coordinators().events(),
                        Optional.ofNullable(jobEnv.get(MpirunCommand.STATS_DIR_ENV)).map(Path::of))
                : null;
        if (!options.coordinators().wanted()) {
            return MpirunJob.run(command, jobEnv, job -> {
                if (injector != null) {
                    injector.start(job.toHandle());
                }
            });
        }
        Path proxy = FthpHome.proxyLibrary(env, mpi);
        try (Coordinators coordinators = Coordinators.start(options.coordinators(), options.ranks(),
                options.replicas(), java, runtimeJar, options.checkpoint())) {
            jobEnv.putAll(coordinators.environment());
            // preloaded into the launcher only: the library removes itself from the environment the ranks get
            jobEnv.put("LD_PRELOAD", proxy.toString());
            // the proxy writes the pid of every child it hides to each of these pipes, read by the coordinators
            jobEnv.put(PROXY_REPORT_ENV, coordinators.reportPipes());
            StopOnSignal stop = options.checkpoint().directory().isPresent()
                    ? StopOnSignal.install(coordinators, System.err) : null;
            try {
                if (options.checkpoint().restarts() > 0) {
                    return new RestartLoop(options, commandFor, jobEnv, coordinators, start, stop).run(injector);
                }
                int code = MpirunJob.run(command, jobEnv, () -> coordinators.abortLine().isPresent(), job -> {
                    if (stop != null) {
                        stop.running(job);
                    }
                    if (injector != null) {
                        injector.start(job.toHandle());
                    }
                    coordinators.onAbort(line -> {
                        if (stop == null || !stop.stopped()) {
                            endJob(job, line);
                        }
                    });
                });
                if (stop != null && stop.stopped()) {
                    return StopOnSignal.EXIT_STOPPED;
                }
                // mpirun may notice the death and end first; the coordinators' verdict is what counts
                boolean aborted = code != 0 || !completed(jobEnv, options.ranks())
                        ? coordinators.awaitAbort(ABORT_GRACE_SECONDS) : coordinators.abortLine().isPresent();
                if (!aborted) {
                    return code;
                }
                String line = coordinators.abortLine().orElse("");
                if (SdcReport.detected(line)) {
                    // no restart to roll back with: the job ends as under --sdc abort
                    SdcReport.event(line, options.coordinators().events(), "abort");
                }
                return programExitCode(line).orElse(EXIT_RANK_LOST);
            } finally {
                coordinators.checkpoints().print(System.err);
            }
        }
    }

    /**
     * Whether mpirun's exit 0 means the job completed: every logical rank has a copy that reached Finalize. When
     * every process of a job dies at once (a rank's copies when it is the only rank, say), mpirun ends with 0
     * before the coordinators' abort arrives.
     */
    static boolean completed(Map<String, String> jobEnv, int ranks) {
        String stats = jobEnv.get(MpirunCommand.STATS_DIR_ENV);
        return stats == null || RunSummary.everyRankFinalized(Path.of(stats), ranks);
    }

    /** Read by the proxy library in mpirun: colon-separated paths its death reports go to. */
    static final String PROXY_REPORT_ENV = "FTHP_PROXY_REPORT";

    static final long ABORT_GRACE_SECONDS = 3;

    static void endJob(Process mpirun, String abortLine) {
        java.util.OptionalInt program = programExitCode(abortLine);
        if (program.isPresent()) {
            String reason = abortLine.substring(abortLine.indexOf(REASON) + REASON.length());
            System.err.println("fthp-run: the program ended the job: " + reason + " (exit code "
                    + program.getAsInt() + ")");
        } else {
            System.err.println("fthp-run: job aborted by the coordinators: " + abortLine);
        }
        // mpirun may be aborting already (it saw the death too); signalling it in the middle
        // of that makes Open MPI 4.1's mpirun crash, so give it a moment first
        try {
            mpirun.waitFor(ABORT_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        MpirunJob.stop(mpirun);
    }

    private static final String REASON = "reason=";

    /** How long this host's ranks get to exit after their last PROCESS_DONE before mpirun is ended. */
    static final long LOCAL_RANKS_EXIT_MILLIS = 5_000;

    /**
     * After a host was lost, every process has finished or failed: mpirun (in recovery mode) waits for ever for
     * the lost host's processes, so it is ended here, once this host's ranks have exited and so flushed their output,
     * or after {@link #LOCAL_RANKS_EXIT_MILLIS}. Open MPI's ranks here are mpirun's java children; MPICH's are the
     * children of the local hydra_pmi_proxy (mpiexec.hydra, whose library hides the lost host's proxy connection,
     * waits for it as mpirun does).
     */
    static void endAfterHostLoss(Process mpirun, NativeMpi mpi) {
        long deadline = System.nanoTime() + LOCAL_RANKS_EXIT_MILLIS * 1_000_000;
        java.util.function.Supplier<java.util.stream.Stream<ProcessHandle>> ranks =
                mpi == NativeMpi.MPICH ? mpirun::descendants : mpirun::children;
        Poll.until(() -> !mpirun.isAlive() || ranks.get().noneMatch(
                c -> c.info().command().map(cmd -> cmd.endsWith("/java")).orElse(false)), deadline);
        if (mpirun.isAlive()) {
            System.err.println("fthp-run: every process has finished or failed with its host; ending mpirun, which"
                    + " waits for the lost host's processes");
            MpirunJob.stop(mpirun);
        }
    }

    /**
     * The program's own exit code when the coordinators' abort line says its program ended the job ({@code
     * code=C}: an uncaught exception, an exit or return before MPI_Finalize, MPI_Abort); empty when processes were
     * lost. Such a job is never restarted: the program would end the same way again.
     */
    static java.util.OptionalInt programExitCode(String abortLine) {
        int reason = abortLine.indexOf(REASON);
        String code = CheckpointReport.fields(reason < 0 ? abortLine : abortLine.substring(0, reason)).get("code");
        try {
            return code == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(Integer.parseInt(code));
        } catch (NumberFormatException e) {
            return java.util.OptionalInt.empty();
        }
    }

    /**
     * Exit code when the coordinators end the job: a rank lost every copy, or a process died before it
     * registered with them.
     */
    static final int EXIT_RANK_LOST = 4;
}

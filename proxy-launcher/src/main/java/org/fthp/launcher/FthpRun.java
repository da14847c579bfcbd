package org.fthp.launcher;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

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
        if (options.checkpoint().directory().isPresent()) {
            CheckpointDirectory.check(options.checkpoint().directory().get());
        }

        MultiHostLaunch hosts = MultiHostLaunch.plan(options, env, FthpHome.locate(env), mpi);
        if (hosts != null) {
            return launchAcrossHosts(hosts, options, program, host, env, abi, sdc);
        }
        List<String> command = MpirunCommand.build(options, program, host);
        if (options.verbose()) {
            System.err.println("fthp-run: " + MpirunCommand.display(command));
        }
        Map<String, String> jobEnv = jobEnvironment(options, abi, sdc);
        jobEnv.putAll(mpi.rankEnvironment(options, env));
        try (RunSummary summary = RunSummary.create(options.ranks(), options.replicas())) {
            jobEnv.put(MpirunCommand.STATS_DIR_ENV, summary.directory().toString());
            int code;
            // with restarts every rank prints through files: a rank's output continues across incarnations
            if (options.replicas() > 0 || options.checkpoint().restarts() > 0) {
                jobEnv.put(RankOutputRelay.DIR_ENV, summary.directory().toString());
                try (RankOutputRelay output = RankOutputRelay.start(summary.directory(), options.ranks(),
                        sdc.rollsBack() && !sdc.mode().equals("off") && options.checkpoint().restarts() > 0
                                ? options.replicas() : 0, System.out, System.err)) {
                    code = runJob(options, env, m -> MpirunCommand.build(options.withReplicas(m), program, host),
                            jobEnv, java, runtimeJar, mpi);
                }
            } else {
                code = runJob(options, env, m -> command, jobEnv, java, runtimeJar, mpi);
            }
            summary.print(System.err);
            SdcReport.print(summary.directory(), options, sdc, System.err);
            return code;
        }
    }

    /** What every rank gets in its environment (through mpirun's -x): the ABI, the job's shape, kills, checkpoints. */
    private static Map<String, String> jobEnvironment(LaunchOptions options, Path abi, SdcOptions sdc) {
        Map<String, String> jobEnv = new HashMap<>();
        sdc.addTo(jobEnv, options);
        jobEnv.put(MpirunCommand.ABI_ENV, abi.toString());
        jobEnv.put(MpirunCommand.LOGICAL_SIZE_ENV, Integer.toString(options.ranks()));
        jobEnv.put(MpirunCommand.REPLICAS_ENV, Integer.toString(options.replicas()));
        jobEnv.put(MpirunCommand.SHOW_REPLICA_OUTPUT_ENV, options.showReplicaOutput() ? "1" : "0");
        if (!options.kills().callKills().isEmpty()) {
            jobEnv.put(MpirunCommand.KILL_AT_CALL_ENV, options.kills().callKillsByNativeRank(options.ranks()));
        }
        if (options.checkpoint().wanted()) {
            jobEnv.put(MpirunCommand.CHECKPOINT_ENABLED_ENV, "1");
            jobEnv.put(MpirunCommand.CHECKPOINT_RESTART_ENV, "0");
            jobEnv.put(MpirunCommand.CHECKPOINT_EPOCH_ENV, "-1");
            options.checkpoint().directory().ifPresent(
                    dir -> jobEnv.put(MpirunCommand.CHECKPOINT_DIR_ENV, dir.toAbsolutePath().toString()));
        }
        return jobEnv;
    }

    /**
     * A job with coordinators on several hosts (see {@link MultiHostLaunch}): the job directory's path is also
     * where every host's coordinator makes its proxy report FIFO (each host has its own /tmp), the ranks print
     * through the {@link RankOutputSink}, and the coordinators' verdict counts as on one host.
     */
    private static int launchAcrossHosts(MultiHostLaunch hosts, LaunchOptions asked, UserProgram program,
                                         LaunchHost host, Map<String, String> env, Path abi, SdcOptions sdc)
            throws LaunchException {
        Map<String, String> jobEnv = jobEnvironment(asked, abi, sdc);
        try (RunSummary summary = RunSummary.create(asked.ranks(), asked.replicas())) {
            String jobDir = summary.directory().toString();
            LaunchOptions options = asked.withMpirunArgs(
                    hosts.launcherArgs(asked.mpirunArgs(), summary.directory(), jobDir),
                    hosts.coordinatorPlan(asked.coordinators()));
            List<String> command = MpirunCommand.build(options, program, host);
            if (options.verbose()) {
                for (String line : hosts.describe()) {
                    System.err.println("fthp-run: " + line);
                }
                System.err.println("fthp-run: " + MpirunCommand.display(command));
            }
            jobEnv.put(MpirunCommand.STATS_DIR_ENV, jobDir);
            jobEnv.put(RankOutputRelay.DIR_ENV, jobDir);
            jobEnv.put(MultiHostLaunch.NODE_OF_ENV, hosts.placement().coordinatorOf());
            int code;
            try (Coordinators coordinators = hosts.startCoordinators(options.coordinators(), options.ranks(),
                    options.replicas(), host.java(), host.runtimeJar(), options.checkpoint(), jobDir)) {
                jobEnv.putAll(coordinators.environment());
                // mpirun's own children are this host's ranks; every other host's orted gets the library from
                // the launch agent (fthp-orted.sh) and reports to its own host's coordinator
                jobEnv.put("LD_PRELOAD", FthpHome.proxyLibrary(env, host.mpi()).toString());
                jobEnv.putAll(hosts.launcherEnvironment(jobDir));
                jobEnv.putAll(host.mpi().rankEnvironment(options, env));
                jobEnv.put(PROXY_REPORT_ENV, coordinators.reportPipe(0));
                // mpirun runs in recovery mode here (a lost orted must not end the job), which ignores a rank's
                // non-zero exit: the library reports those too, so one before registering ends the job
                jobEnv.put("FTHP_PROXY_REPORT_EXITS", "1");
                try (RankOutputSink output = RankOutputSink.start(hosts.launchAddress(),
                        jobEnv.get(Coordinators.SECRET_ENV), options.ranks(), System.out, System.err)) {
                    jobEnv.put(RankOutputSink.ADDRESS_ENV, output.address());
                    FailureInjector injector = options.kills().injectorWanted()
                            ? new FailureInjector(options.kills(), options.ranks(), options.processes(),
                                    options.coordinators().events(), coordinators.killTargets(nodeOfRanks(hosts)))
                            : null;
                    code = MpirunJob.run(command, jobEnv, () -> coordinators.abortLine().isPresent(), job -> {
                        if (injector != null) {
                            injector.start(job.toHandle());
                        }
                        coordinators.onAbort(line -> endJob(job, line));
                        coordinators.onHostLost(what -> hosts.hostLost(what, jobDir));
                        coordinators.onProcessesEnded(() -> endAfterHostLoss(job, host.mpi()));
                    });
                }
                code = verdict(code, coordinators);
                if (coordinators.processesEnded() && coordinators.abortLine().isEmpty()) {
                    // mpirun was ended by us: every process had finished or failed with its host
                    code = 0;
                }
                // the other hosts' ranks left their statistics in their own host's job directory
                coordinators.collectStats(summary.directory());
            }
            summary.print(System.err);
            SdcReport.print(summary.directory(), asked, sdc, System.err);
            return code;
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

    /** mpirun may notice a death and end first; the coordinators' verdict is what counts. */
    private static int verdict(int code, Coordinators coordinators) {
        boolean aborted = code != 0 ? coordinators.awaitAbort(ABORT_GRACE_SECONDS)
                : coordinators.abortLine().isPresent();
        if (!aborted) {
            return code;
        }
        return programExitCode(coordinators.abortLine().orElse("")).orElse(EXIT_RANK_LOST);
    }

    private static int runJob(LaunchOptions options, Map<String, String> env,
                              java.util.function.IntFunction<List<String>> commandFor,
                              Map<String, String> jobEnv, Path java, Path runtimeJar, NativeMpi mpi)
            throws LaunchException {
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
            try {
                if (options.checkpoint().restarts() > 0) {
                    return new RestartLoop(options, commandFor, jobEnv, coordinators).run(injector);
                }
                int code = MpirunJob.run(command, jobEnv, () -> coordinators.abortLine().isPresent(), job -> {
                    if (injector != null) {
                        injector.start(job.toHandle());
                    }
                    coordinators.onAbort(line -> endJob(job, line));
                });
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

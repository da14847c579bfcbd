package org.fthp.launcher;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.fthp.launcher.inject.KillPlan;

/**
 * What the user asked for, as parsed from the fthp-run command line.
 *
 * @param helpRequested  -h/--help was given before "--": print usage, launch nothing
 * @param ranks          number of logical ranks (-np); 0 only when help was requested
 * @param replicas       how many of them get a live replica (--replicas M, or --degree F × ranks)
 * @param showReplicaOutput show replicas' stdout/stderr, prefixed (--show-replica-output)
 * @param verbose        print the built command line to stderr
 * @param mpirunArgs     tokens before "--" that are not ours, for mpirun, in order
 * @param javaOptions    JVM options after "--", without any class path or -jar option
 * @param userClasspath  the user's -cp value (the last one wins, as with java), if any
 * @param appJar         the -jar file, if the program is started from a jar
 * @param mainClass      the main class named on the command line (absent with -jar)
 * @param programArgs    arguments for the program's main method
 * @param coordinators   the coordinator hierarchy to start (none unless --nodes is given)
 * @param kills          failures to inject (--kill, --inject weibull)
 * @param checkpoint     checkpoints and restarts (--checkpoint-*, --restart, --restart-replicas)
 * @param mapReplicas    on several hosts, where replicas go: {@code next} (another host than their twins',
 *                       the default) or {@code same} (their twins' host) (--map-replicas)
 * @param spares         extra native processes after the program's, each waiting to take a lost rank's place
 *                       (--spares S)
 */
public record LaunchOptions(
        boolean helpRequested,
        int ranks,
        int replicas,
        boolean showReplicaOutput,
        boolean verbose,
        List<String> mpirunArgs,
        List<String> javaOptions,
        Optional<String> userClasspath,
        Optional<Path> appJar,
        Optional<String> mainClass,
        List<String> programArgs,
        CoordinatorPlan coordinators,
        KillPlan kills,
        CheckpointPlan checkpoint,
        String mapReplicas,
        int spares) {

    public LaunchOptions {
        mpirunArgs = List.copyOf(mpirunArgs);
        javaOptions = List.copyOf(javaOptions);
        programArgs = List.copyOf(programArgs);
    }

    /** The same job with another replication degree (a restart with --restart-replicas). */
    public LaunchOptions withReplicas(int m) {
        return new LaunchOptions(helpRequested, ranks, m, showReplicaOutput, verbose, mpirunArgs, javaOptions,
                userClasspath, appJar, mainClass, programArgs, coordinators, kills, checkpoint, mapReplicas, spares);
    }

    /** The same job with more options for mpirun after the user's (a multi-host job's placement and agents). */
    public LaunchOptions withMoreMpirunArgs(List<String> more, CoordinatorPlan plan) {
        List<String> args = new java.util.ArrayList<>(mpirunArgs);
        args.addAll(more);
        return new LaunchOptions(helpRequested, ranks, replicas, showReplicaOutput, verbose, args, javaOptions,
                userClasspath, appJar, mainClass, programArgs, plan, kills, checkpoint, mapReplicas, spares);
    }

    /** The same job with the launcher's options {@code args} instead (several hosts on MPICH: fthp-run's own). */
    public LaunchOptions withMpirunArgs(List<String> args, CoordinatorPlan plan) {
        return new LaunchOptions(helpRequested, ranks, replicas, showReplicaOutput, verbose, List.copyOf(args),
                javaOptions, userClasspath, appJar, mainClass, programArgs, plan, kills, checkpoint, mapReplicas, spares);
    }

    /** The same job with another checkpoint plan (the program's identity recorded). */
    public LaunchOptions withCheckpoint(CheckpointPlan plan) {
        return new LaunchOptions(helpRequested, ranks, replicas, showReplicaOutput, verbose, mpirunArgs, javaOptions,
                userClasspath, appJar, mainClass, programArgs, coordinators, kills, plan, mapReplicas, spares);
    }

    /** Native processes the job needs: every logical rank plus the replicas. */
    public int processes() {
        return ranks + replicas;
    }

    /** Native processes the launcher starts: the program's, then the spares. */
    public int nativeProcesses() {
        return processes() + spares;
    }

    static LaunchOptions help() {
        return new LaunchOptions(true, 0, 0, false, false, List.of(), List.of(),
                Optional.empty(), Optional.empty(), Optional.empty(), List.of(), CoordinatorPlan.NONE,
                KillPlan.NONE, CheckpointPlan.NONE, ReplicaPlacement.NEXT, 0);
    }
}

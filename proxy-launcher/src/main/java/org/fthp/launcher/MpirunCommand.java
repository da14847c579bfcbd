package org.fthp.launcher;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the native launcher command line: pure logic, no processes, so it is unit-tested. The launcher's own
 * options are the library's ({@link NativeMpi}); on Open MPI:
 *
 * <pre>
 * mpirun [--allow-run-as-root] [--oversubscribe] --bind-to none -np N -x FTHP_EMPI_ABI &lt;passthrough&gt;
 *        java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC &lt;CLASS_FILE_API_LATE&gt; &lt;GENERAL_PATH_APART&gt;
 *        &lt;SHALLOW_ENTRIES_FOREGROUND&gt; &lt;SHALLOW_ENTRIES_EARLY&gt;
 *        -cp runtime.jar:user.cp
 *        [-XX:AOTCache=fthp-mpi.aot -Xlog:aot=off]
 *        &lt;user java options&gt; MainClass args...
 * </pre>
 */
public final class MpirunCommand {

    /** Environment variable naming the ABI description; exported to every rank with -x. */
    public static final String ABI_ENV = "FTHP_EMPI_ABI";

    /** The job's shape for the ranks (logical size, replicas), the ABI, and where ranks leave statistics. */
    static final String LOGICAL_SIZE_ENV = "FTHP_LOGICAL_SIZE";
    static final String REPLICAS_ENV = "FTHP_REPLICAS";
    static final String SHOW_REPLICA_OUTPUT_ENV = "FTHP_SHOW_REPLICA_OUTPUT";
    static final String STATS_DIR_ENV = "FTHP_STATS_DIR";
    /** {@code NATIVE:CALL,...}: the processes that kill themselves at their CALL-th MPI call (--kill R#CALL). */
    static final String KILL_AT_CALL_ENV = "FTHP_KILL_AT_CALL";
    /** How many spares follow the program's processes (--spares S); set only when there are any. */
    static final String SPARES_ENV = "FTHP_SPARES";
    /**
     * Checkpoints, set for the ranks when the job has any (--checkpoint-*, --restart): {@code 1} when the
     * coordinators hold checkpoints; which incarnation this is (0: the first run, K: the K-th restart); the epoch
     * to recover (-1: none committed, start from the beginning); the checkpoint directory, if any.
     */
    static final String CHECKPOINT_ENABLED_ENV = "FTHP_CHECKPOINT_ENABLED";
    static final String CHECKPOINT_RESTART_ENV = "FTHP_CHECKPOINT_RESTART";
    static final String CHECKPOINT_EPOCH_ENV = "FTHP_CHECKPOINT_EPOCH";
    static final String CHECKPOINT_FIRST_EPOCH_ENV = "FTHP_CHECKPOINT_FIRST_EPOCH";
    static final String CHECKPOINT_DIR_ENV = "FTHP_CHECKPOINT_DIR";
    static final List<String> JOB_ENV = List.of(ABI_ENV, LOGICAL_SIZE_ENV, REPLICAS_ENV, SHOW_REPLICA_OUTPUT_ENV,
            STATS_DIR_ENV);

    /**
     * The JDK's class-file generator compiled late in every rank. The EMPI binding's downcall handles make the JDK
     * generate some 400 classes in {@code MPI.Init} (downcall stubs and their lambda forms); generating that many
     * takes the generator past the JIT's thresholds, and C1 and C2 would compile it, on cores the ranks share, for
     * code that runs once. At ten times the usual counts it stays interpreted through start-up (bench/start.sh
     * measures a rank's CPU to MPI.Init's return). A program's own {@code -XX:CompileCommand} comes later and
     * wins. {@code quiet} first: else the JVM announces each command on the program's stdout (a program's own
     * commands are then not announced either).
     */
    static final List<String> CLASS_FILE_API_LATE = List.of("-XX:CompileCommand=quiet",
            "-XX:CompileCommand=CompileThresholdScaling,jdk.internal.classfile.*::*,10.0");

    /**
     * The engine's general point-to-point path kept out of the compiled shallow entries. {@code Comm.send} and
     * {@code Comm.recv} reach it only when the shallow path declines a call (a message past the eager limit, a
     * probed message...); C2 compiles them on a program's small messages with that branch as an uncommon trap, and
     * the first large message deoptimizes them and has them compiled again with the whole general path (pulls,
     * staging, FFM) inlined: the largest single compilations of a ping-pong's first seconds, while both ranks spin
     * on the cores the compiler needs. Kept out, the general path is compiled once as its own methods and the
     * entries stay small; the general path pays one call per message on top of a message past the eager limit.
     * Each names a method with its descriptor (RankCompileCommandsTest checks that they resolve).
     */
    public static final List<String> GENERAL_PATH_APART = List.of(
            "-XX:CompileCommand=dontinline,org.fthp.replication.runtime.PointToPoint::send(Lorg/fthp/replication/ops/Transfer;)V",
            "-XX:CompileCommand=dontinline,org.fthp.replication.runtime.PointToPoint::receive(Lorg/fthp/replication/ops/Transfer;)V");

    /**
     * The shallow entries compiled in the foreground: the rank's thread that makes {@code Comm.send} or
     * {@code Comm.recv} hot waits for their compilation instead of running on in slower code while a compiler
     * thread compiles them. In a program's first messages both ranks poll, so a compiler thread in the background
     * shares their two cores with them: the round trips crawl while it compiles, and the compilation, queued
     * behind others and preempted, takes several times its CPU. Waiting, the thread leaves its core to the
     * compiler, and runs the compiled code as soon as it exists (also after a deoptimization, when a new size
     * or a send left in flight brings a branch the compiled code did not have). Each names a method with its
     * descriptor (RankCompileCommandsTest checks that they resolve).
     */
    public static final List<String> SHALLOW_ENTRIES_FOREGROUND = List.of(
            "-XX:CompileCommand=BackgroundCompilation,mpi.Comm::send(Ljava/lang/Object;ILmpi/Datatype;II)V,false",
            "-XX:CompileCommand=BackgroundCompilation,mpi.Comm::recv(Ljava/lang/Object;ILmpi/Datatype;II)Lmpi/Status;,false");

    /**
     * The shallow entries C2-compiled after a fifth of the usual calls. Until C2 has them, {@code Comm.send} and
     * {@code Comm.recv} run as C1's profiling code (tier 3), which counts every call and branch of the path inlined
     * into them: twice what the same path costs as C1's code without profiles, and above the binding's call. A
     * fifth of the profile is enough for a path this short (its branches are the same on every small message), so
     * they leave that phase sooner; the rest of the engine keeps the usual thresholds, as lower ones for all of it
     * had C2 compile more, sooner, on worse profiles (bench/README, "From the first second"). Each names a method
     * with its descriptor (RankCompileCommandsTest checks that they resolve).
     */
    public static final List<String> SHALLOW_ENTRIES_EARLY = List.of(
            "-XX:CompileCommand=CompileThresholdScaling,mpi.Comm::send(Ljava/lang/Object;ILmpi/Datatype;II)V,0.2",
            "-XX:CompileCommand=CompileThresholdScaling,mpi.Comm::recv(Ljava/lang/Object;ILmpi/Datatype;II)Lmpi/Status;,0.2");

    private MpirunCommand() {}

    public static List<String> build(LaunchOptions options, UserProgram program, LaunchHost host) {
        List<String> command = new ArrayList<>();
        command.add(host.mpirun().toString());
        host.mpi().addLauncherOptions(command, options, host, exported(options), options.mpirunArgs());

        command.add(host.java().toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        // Many more JVMs than cores: one GC thread each instead of a parallel collector apiece.
        if (options.javaOptions().stream().noneMatch(MpirunCommand::selectsCollector)) {
            command.add("-XX:+UseSerialGC");
        }
        command.addAll(CLASS_FILE_API_LATE);
        command.addAll(GENERAL_PATH_APART);
        command.addAll(SHALLOW_ENTRIES_FOREGROUND);
        command.addAll(SHALLOW_ENTRIES_EARLY);
        command.add("-cp");
        command.add(classpath(host.runtimeJar(), program.classpath()));
        if (host.aotCache().isPresent() && !AotCache.userChoosesOwn(options.javaOptions())) {
            // after -cp: Open MPI's mpirun takes the first word holding "cp" for the class path option and
            // rewrites the word after it (a cache under a path holding "cp" would lose its -Xlog option)
            command.addAll(AotCache.javaOptions(host.aotCache().get()));
        }
        command.addAll(options.javaOptions());
        command.add(program.mainClass());
        command.addAll(options.programArgs());
        return command;
    }

    /**
     * Our runtime jar first, so our mpi package wins over any mpi.jar on the user's path; alone when the user's
     * path is that jar (the cache's training run: a cache holds the classes of the path it was trained with).
     */
    static String classpath(Path runtimeJar, String userClasspath) {
        return userClasspath.equals(runtimeJar.toString()) ? userClasspath
                : runtimeJar + File.pathSeparator + userClasspath;
    }

    /** The names of the environment variables every rank must get, in the order the launcher is told them. */
    static List<String> exported(LaunchOptions options) {
        List<String> names = new ArrayList<>(JOB_ENV);
        if (!options.kills().callKills().isEmpty()) {
            names.add(KILL_AT_CALL_ENV);
        }
        if (options.replicas() > 0 || options.checkpoint().wanted()) {
            // twin comparison and injected corruption (SdcOptions): only where a replica or a checkpoint is
            names.addAll(SdcOptions.ENV);
        }
        if (options.spares() > 0) {
            names.add(SPARES_ENV);
        }
        if (options.checkpoint().wanted()) {
            names.addAll(List.of(CHECKPOINT_ENABLED_ENV, CHECKPOINT_RESTART_ENV, CHECKPOINT_EPOCH_ENV,
                    CHECKPOINT_FIRST_EPOCH_ENV));
            if (options.checkpoint().directory().isPresent()) {
                names.add(CHECKPOINT_DIR_ENV);
            }
        }
        if (options.replicas() > 0 || options.checkpoint().restarts() > 0) {
            // replicated ranks (every rank, when the job may restart) print through files fthp-run relays
            names.add(RankOutputRelay.DIR_ENV);
        }
        if (options.coordinators().wanted()) {
            // names only: the values (the secret among them) travel in the environment, never on a command line
            names.add(Coordinators.SECRET_ENV);
            names.add(Coordinators.ADDRESSES_ENV);
        }
        return names;
    }

    /** Two collectors on one JVM command line make the JVM refuse to start. */
    static boolean selectsCollector(String javaOption) {
        return javaOption.startsWith("-XX:+Use") && javaOption.endsWith("GC");
    }

    /** The command as a shell-readable line, for --verbose. */
    public static String display(List<String> command) {
        StringBuilder line = new StringBuilder();
        for (String word : command) {
            if (!line.isEmpty()) {
                line.append(' ');
            }
            line.append(word.matches("[A-Za-z0-9_./:=+,@%-]+") ? word : "'" + word.replace("'", "'\\''") + "'");
        }
        return line.toString();
    }
}

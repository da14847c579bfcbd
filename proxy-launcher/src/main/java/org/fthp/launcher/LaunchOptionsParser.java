package org.fthp.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

import org.fthp.launcher.inject.KillPlan;

/**
 * Parses {@code fthp-run -np N [mpirun options] -- [java options] MainClass|-jar app.jar [args]}.
 *
 * <p>Before "--" we only pick out our own options; everything else goes to mpirun verbatim and
 * in order, so we never have to know which mpirun options take a value. After "--" we must know
 * the java launcher's syntax well enough to find the class path and the main class, because the
 * class path is rebuilt (our runtime jar has to come first so our {@code mpi} package wins).
 */
public final class LaunchOptionsParser {

    public static final String SEPARATOR = "--";

    /** java launcher options whose value is the next token ("--add-opens x=y" etc.). */
    private static final Set<String> JAVA_OPTIONS_WITH_SEPARATE_VALUE = Set.of(
            "--add-opens", "--add-exports", "--add-reads", "--add-modules",
            "--module-path", "-p", "--upgrade-module-path", "--patch-module",
            "--limit-modules", "--enable-native-access");

    private static final Set<String> CLASSPATH_OPTIONS = Set.of("-cp", "-classpath", "--class-path");

    /** Module launch mode: the class path we build would not be used, so refuse it clearly. */
    private static final Set<String> MODULE_MAIN_OPTIONS = Set.of("-m", "--module");

    public LaunchOptions parse(List<String> args) throws LaunchException {
        int separator = args.indexOf(SEPARATOR);
        List<String> launcherPart = separator < 0 ? args : args.subList(0, separator);
        // Help wins over any error in the rest of the line: someone asking for help is lost already.
        if (launcherPart.contains("-h") || launcherPart.contains("--help")) {
            return LaunchOptions.help();
        }

        Integer ranks = null;
        Integer replicas = null;
        Double degree = null;
        boolean showReplicaOutput = false;
        boolean verbose = false;
        int nodes = 0;
        int groupSize = 0;
        Optional<Path> events = Optional.empty();
        List<KillPlan.Kill> kills = new ArrayList<>();
        String inject = null;
        Double mtbf = null;
        boolean perProcess = false;
        double shape = 0.7;
        long seed = 1;
        String checkpointInterval = null;
        Path checkpointDir = null;
        long checkpointMemory = CheckpointPlan.DEFAULT_MEMORY_BYTES;
        int diskEvery = CheckpointPlan.DEFAULT_DISK_EVERY;
        boolean diskEveryGiven = false;
        int restarts = 0;
        Integer restartReplicas = null;
        int spares = 0;
        String restoreReplicas = null;
        String resume = null;
        String mapReplicas = ReplicaPlacement.NEXT;
        List<String> mpirunArgs = new ArrayList<>();
        for (int i = 0; i < launcherPart.size(); i++) {
            String token = launcherPart.get(i);
            switch (token) {
                case "--verbose" -> verbose = true;
                case "-np", "-n", "--np" -> {
                    if (ranks != null) {
                        throw LaunchException.usage("the number of ranks (" + token + ") is given twice");
                    }
                    if (i + 1 >= launcherPart.size()) {
                        throw LaunchException.usage(token + " needs a value: the number of ranks");
                    }
                    ranks = parseRanks(token, launcherPart.get(++i));
                }
                case "--replicas" -> replicas = nonNegative(token, valueOf(launcherPart, ++i, token));
                case "--degree" -> degree = fraction(token, valueOf(launcherPart, ++i, token));
                case "--show-replica-output" -> showReplicaOutput = true;
                case "--nodes" -> nodes = positive(token, valueOf(launcherPart, ++i, token));
                case "--group-size" -> groupSize = positive(token, valueOf(launcherPart, ++i, token));
                case "--events" -> events = Optional.of(Path.of(valueOf(launcherPart, ++i, token)));
                case "--kill" -> kills.add(killSpec(valueOf(launcherPart, ++i, token)));
                case "--inject" -> inject = valueOf(launcherPart, ++i, token);
                case "--mtbf" -> mtbf = positiveReal(token, valueOf(launcherPart, ++i, token));
                case "--mtbf-per-process" -> {
                    mtbf = positiveReal(token, valueOf(launcherPart, ++i, token));
                    perProcess = true;
                }
                case "--shape" -> shape = positiveReal(token, valueOf(launcherPart, ++i, token));
                case "--seed" -> seed = longValue(token, valueOf(launcherPart, ++i, token));
                case "--checkpoint-interval" -> checkpointInterval = interval(token, valueOf(launcherPart, ++i, token));
                case "--checkpoint-dir" -> checkpointDir = Path.of(valueOf(launcherPart, ++i, token));
                case "--checkpoint-memory" -> checkpointMemory = byteSize(token, valueOf(launcherPart, ++i, token));
                case "--checkpoint-disk-every" -> {
                    diskEvery = positive(token, valueOf(launcherPart, ++i, token));
                    diskEveryGiven = true;
                }
                case "--map-replicas" -> {
                    mapReplicas = valueOf(launcherPart, ++i, token);
                    if (!ReplicaPlacement.MAPPINGS.contains(mapReplicas)) {
                        throw LaunchException.usage("--map-replicas knows " + ReplicaPlacement.MAPPINGS + ", not \""
                                + mapReplicas + "\"");
                    }
                }
                case "--spares" -> spares = nonNegative(token, valueOf(launcherPart, ++i, token));
                case "--restore-replicas" -> {
                    restoreReplicas = valueOf(launcherPart, ++i, token);
                    if (!restoreReplicas.equals("on") && !restoreReplicas.equals("off")) {
                        throw LaunchException.usage("--restore-replicas takes on or off, not \"" + restoreReplicas
                                + "\"");
                    }
                }
                case "--resume" -> {
                    resume = valueOf(launcherPart, ++i, token);
                    if (!CheckpointPlan.RESUME_MODES.contains(resume)) {
                        throw LaunchException.usage("--resume knows auto, never and force, not \"" + resume + "\"");
                    }
                }
                case "--restart" -> restarts = nonNegative(token, valueOf(launcherPart, ++i, token));
                case "--restart-replicas" -> restartReplicas = nonNegative(token, valueOf(launcherPart, ++i, token));
                case "--log-limit" -> {
                    // reaches the ranks' environment through mpirun, like the job's other settings
                    mpirunArgs.add("-x");
                    mpirunArgs.add("FTHP_LOG_LIMIT=" + byteSize(token, valueOf(launcherPart, ++i, token)));
                }
                default -> mpirunArgs.add(token);
            }
        }
        if (groupSize > 0 && nodes == 0) {
            throw LaunchException.usage("--group-size needs --nodes K (the coordinators to start)");
        }
        KillPlan.Weibull weibull = null;
        if (inject != null) {
            if (!inject.equals("weibull")) {
                throw LaunchException.usage("--inject knows only \"weibull\", not \"" + inject + "\"");
            }
            if (mtbf == null) {
                throw LaunchException.usage("--inject weibull needs --mtbf SECONDS or --mtbf-per-process SECONDS");
            }
            weibull = new KillPlan.Weibull(mtbf, perProcess, shape, seed);
        } else if (mtbf != null && !"auto".equals(checkpointInterval)) {
            // without injection an MTBF only informs the automatic checkpoint interval
            throw LaunchException.usage("--mtbf needs --inject weibull (or --checkpoint-interval auto)");
        }
        KillPlan killPlan = kills.isEmpty() && weibull == null ? KillPlan.NONE : KillPlan.of(kills, weibull);
        if (ranks == null) {
            throw LaunchException.usage("missing -np N (the number of ranks)");
        }
        if (replicas != null && degree != null) {
            throw LaunchException.usage("give --replicas M or --degree F, not both");
        }
        int m = replicas != null ? replicas : degree != null ? (int) Math.round(degree * ranks) : 0;
        if (m > ranks) {
            throw LaunchException.usage("--replicas " + m + " is more than the " + ranks
                    + " ranks: each rank has at most one replica");
        }
        for (KillPlan.Kill k : kills) {
            if (k instanceof KillPlan.ScheduledKill t && t.spare()) {
                if (t.logicalRank() >= spares) {
                    throw LaunchException.usage("--kill names spare " + t.logicalRank() + ", but the job has "
                            + spares + " spares (--spares)");
                }
                continue;
            }
            if (k.logicalRank() >= ranks) {
                throw LaunchException.usage("--kill names rank " + k.logicalRank() + ", but the job has ranks 0.."
                        + (ranks - 1));
            }
            if (k.replica() && k.logicalRank() >= m) {
                throw LaunchException.usage("--kill names the replica of rank " + k.logicalRank()
                        + ", which has none (--replicas " + m + ": ranks 0.." + (m - 1) + " have one)");
            }
        }
        if (restartReplicas != null && restarts == 0) {
            throw LaunchException.usage("--restart-replicas needs --restart K (how many restarts are allowed)");
        }
        if (restartReplicas != null && restartReplicas > ranks) {
            throw LaunchException.usage("--restart-replicas " + restartReplicas + " is more than the " + ranks
                    + " ranks: each rank has at most one replica");
        }
        if (diskEveryGiven && checkpointDir == null) {
            throw LaunchException.usage("--checkpoint-disk-every needs --checkpoint-dir DIR");
        }
        if (resume != null && checkpointDir == null) {
            throw LaunchException.usage("--resume needs --checkpoint-dir DIR (where the earlier job's checkpoints are)");
        }
        OptionalDouble mtbfPerProcess = mtbf == null ? OptionalDouble.empty()
                : OptionalDouble.of(perProcess ? mtbf : mtbf * (ranks + m));
        CheckpointPlan checkpoint = new CheckpointPlan(Optional.ofNullable(checkpointInterval),
                Optional.ofNullable(checkpointDir), checkpointMemory, diskEvery, restarts,
                restartReplicas == null ? OptionalInt.empty() : OptionalInt.of(restartReplicas), mtbfPerProcess,
                resume == null ? CheckpointPlan.RESUME_AUTO : resume, Optional.empty(),
                !"off".equals(restoreReplicas));
        if ("on".equals(restoreReplicas) && spares == 0) {
            throw LaunchException.usage("--restore-replicas on needs --spares S (the processes that become replicas)");
        }
        if (separator < 0) {
            throw LaunchException.usage("missing \"--\" between the fthp-run/mpirun options and the java command");
        }
        List<String> javaPart = args.subList(separator + 1, args.size());
        if (javaPart.isEmpty()) {
            throw LaunchException.usage("nothing after \"--\": give a main class or -jar app.jar");
        }
        if (nodes == 0 && (m > 0 || killPlan.wanted() || checkpoint.wanted() || spares > 0)) {
            // failures are survived (or reported) only with coordinators watching: one for this machine
            nodes = 1;
        }
        CoordinatorPlan plan = nodes == 0 ? new CoordinatorPlan(0, 0, events)
                : new CoordinatorPlan(nodes, groupSize == 0 ? CoordinatorPlan.defaultGroupSize(nodes) : groupSize, events);
        return parseJavaPart(ranks, m, showReplicaOutput, verbose, mpirunArgs, javaPart, plan, killPlan, checkpoint,
                mapReplicas, spares);
    }

    /** Seconds (a positive number) or {@code auto}. */
    private static String interval(String option, String value) throws LaunchException {
        if (value.equals("auto")) {
            return value;
        }
        try {
            double v = Double.parseDouble(value);
            if (v > 0 && Double.isFinite(v)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw LaunchException.usage(option + " must be a number of seconds > 0 or \"auto\", not \"" + value + "\"");
    }

    private static KillPlan.Kill killSpec(String spec) throws LaunchException {
        try {
            return KillPlan.parseKill(spec);
        } catch (IllegalArgumentException e) {
            throw LaunchException.usage(e.getMessage());
        }
    }

    private static int nonNegative(String option, String value) throws LaunchException {
        try {
            int v = Integer.parseInt(value);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw LaunchException.usage(option + " must be a whole number of 0 or more, not \"" + value + "\"");
    }

    /** A replication degree: the fraction of ranks that get a replica, 0 to 1. */
    private static double fraction(String option, String value) throws LaunchException {
        try {
            double v = Double.parseDouble(value);
            if (v >= 0 && v <= 1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw LaunchException.usage(option + " must be a fraction from 0 to 1 (1 = every rank replicated), not \""
                + value + "\"");
    }

    static double positiveReal(String option, String value) throws LaunchException {
        try {
            double v = Double.parseDouble(value);
            if (v > 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw LaunchException.usage(option + " must be a positive number, not \"" + value + "\"");
    }

    private static long longValue(String option, String value) throws LaunchException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw LaunchException.usage(option + " must be an integer, not \"" + value + "\"");
        }
    }

    private static String valueOf(List<String> tokens, int index, String option) throws LaunchException {
        if (index >= tokens.size()) {
            throw LaunchException.usage(option + " needs a value");
        }
        return tokens.get(index);
    }

    private static int positive(String option, String value) throws LaunchException {
        try {
            int v = Integer.parseInt(value);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw LaunchException.usage(option + " must be a positive integer, not \"" + value + "\"");
    }

    private static int parseRanks(String option, String value) throws LaunchException {
        int ranks;
        try {
            ranks = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw LaunchException.usage(option + " must be a positive integer, not \"" + value + "\"");
        }
        if (ranks <= 0) {
            throw LaunchException.usage(option + " must be a positive integer, not " + ranks);
        }
        return ranks;
    }

    /** A byte count, optionally with a K, M or G suffix (powers of 1024). */
    static long byteSize(String option, String value) throws LaunchException {
        String v = value.strip().toUpperCase(java.util.Locale.ROOT);
        long unit = 1;
        if (v.endsWith("K") || v.endsWith("M") || v.endsWith("G")) {
            unit = switch (v.charAt(v.length() - 1)) {
                case 'K' -> 1L << 10;
                case 'M' -> 1L << 20;
                default -> 1L << 30;
            };
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n <= 0 || n > Long.MAX_VALUE / unit) {
                throw LaunchException.usage(option + " needs a positive size in bytes, got " + value);
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw LaunchException.usage(option + " needs a size in bytes (e.g. 268435456 or 256M), got " + value);
        }
    }

    private static LaunchOptions parseJavaPart(int ranks, int replicas, boolean showReplicaOutput, boolean verbose,
                                               List<String> mpirunArgs,
                                               List<String> javaPart, CoordinatorPlan plan, KillPlan kills,
                                               CheckpointPlan checkpoint, String mapReplicas, int spares)
            throws LaunchException {
        List<String> javaOptions = new ArrayList<>();
        Optional<String> classpath = Optional.empty();
        for (int i = 0; i < javaPart.size(); i++) {
            String token = javaPart.get(i);
            List<String> rest = javaPart.subList(i + 1, javaPart.size());
            if (CLASSPATH_OPTIONS.contains(token)) {
                if (rest.isEmpty()) {
                    throw LaunchException.usage(token + " needs a value");
                }
                classpath = Optional.of(javaPart.get(++i));
            } else if (token.startsWith("--class-path=")) {
                classpath = Optional.of(token.substring("--class-path=".length()));
            } else if (token.equals("-jar")) {
                if (rest.isEmpty() || rest.get(0).isEmpty()) {
                    throw LaunchException.usage("-jar needs a jar file");
                }
                Path jar = Path.of(rest.get(0));
                return new LaunchOptions(false, ranks, replicas, showReplicaOutput, verbose, mpirunArgs, javaOptions, classpath,
                        Optional.of(jar), Optional.empty(), rest.subList(1, rest.size()), plan, kills, checkpoint,
                        mapReplicas, spares);
            } else if (MODULE_MAIN_OPTIONS.contains(token) || token.startsWith("--module=")) {
                throw LaunchException.usage(token + " (launching a main module) is not supported; use -cp and a main class");
            } else if (JAVA_OPTIONS_WITH_SEPARATE_VALUE.contains(token)) {
                if (rest.isEmpty()) {
                    throw LaunchException.usage(token + " needs a value");
                }
                javaOptions.add(token);
                javaOptions.add(javaPart.get(++i));
            } else if (token.startsWith("-")) {
                javaOptions.add(token);
            } else {
                return new LaunchOptions(false, ranks, replicas, showReplicaOutput, verbose, mpirunArgs, javaOptions, classpath,
                        Optional.empty(), Optional.of(token), rest, plan, kills, checkpoint, mapReplicas, spares);
            }
        }
        throw LaunchException.usage("no main class after \"--\": give a main class or -jar app.jar");
    }
}

package org.fthp.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
        boolean verbose = false;
        int nodes = 0;
        int groupSize = 0;
        Optional<Path> events = Optional.empty();
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
                case "--nodes" -> nodes = positive(token, valueOf(launcherPart, ++i, token));
                case "--group-size" -> groupSize = positive(token, valueOf(launcherPart, ++i, token));
                case "--events" -> events = Optional.of(Path.of(valueOf(launcherPart, ++i, token)));
                default -> mpirunArgs.add(token);
            }
        }
        if ((groupSize > 0 || events.isPresent()) && nodes == 0) {
            throw LaunchException.usage("--group-size and --events need --nodes K (the coordinators to start)");
        }
        if (ranks == null) {
            throw LaunchException.usage("missing -np N (the number of ranks)");
        }
        if (separator < 0) {
            throw LaunchException.usage("missing \"--\" between the fthp-run/mpirun options and the java command");
        }
        List<String> javaPart = args.subList(separator + 1, args.size());
        if (javaPart.isEmpty()) {
            throw LaunchException.usage("nothing after \"--\": give a main class or -jar app.jar");
        }
        CoordinatorPlan plan = nodes == 0 ? CoordinatorPlan.NONE
                : new CoordinatorPlan(nodes, groupSize == 0 ? CoordinatorPlan.defaultGroupSize(nodes) : groupSize, events);
        return parseJavaPart(ranks, verbose, mpirunArgs, javaPart, plan);
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

    private static LaunchOptions parseJavaPart(int ranks, boolean verbose, List<String> mpirunArgs,
                                               List<String> javaPart, CoordinatorPlan plan) throws LaunchException {
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
                return new LaunchOptions(false, ranks, verbose, mpirunArgs, javaOptions, classpath,
                        Optional.of(jar), Optional.empty(), rest.subList(1, rest.size()), plan);
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
                return new LaunchOptions(false, ranks, verbose, mpirunArgs, javaOptions, classpath,
                        Optional.empty(), Optional.of(token), rest, plan);
            }
        }
        throw LaunchException.usage("no main class after \"--\": give a main class or -jar app.jar");
    }
}

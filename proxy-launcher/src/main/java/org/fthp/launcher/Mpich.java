package org.fthp.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * MPICH 4 as Debian installs it beside Open MPI: mpicc.mpich, mpiexec.hydra, and fthp_proxy_hydra.c preloaded into
 * mpiexec.hydra (it acts in hydra_pmi_proxy, which mpiexec starts with its environment). docs/notes/mpich.md.
 */
final class Mpich implements NativeMpi {

    /** UCX's log level for the ranks: see {@link #rankEnvironment}. */
    static final String UCX_LOG_LEVEL = "UCX_LOG_LEVEL";

    @Override
    public String name() {
        return "mpich";
    }

    /** Debian's suffixed name beside Open MPI; the plain one on a machine with MPICH alone. */
    @Override
    public List<String> wrappers() {
        return List.of("mpicc.mpich", "mpicc");
    }

    @Override
    public String launcher() {
        return "mpiexec.hydra";
    }

    @Override
    public String proxyLibrary() {
        return "libfthp_proxy_hydra.so";
    }

    @Override
    public String installHint() {
        return "install MPICH: apt-get install mpich libmpich-dev (or run FTHP_MPI=mpich scripts/setup.sh)";
    }

    /**
     * {@code -bind-to none -n P -genvlist NAME,...}: hydra runs as root and oversubscribes without being told, and
     * has no {@code -x}; a passthrough {@code -x NAME[=VALUE]} (Open MPI's way, which fthp-run's own --log-limit
     * also uses) becomes {@code -genv NAME VALUE} or joins the list. Locally the ranks inherit the whole
     * environment anyway; the list carries it to other hosts.
     */
    @Override
    public void addLauncherOptions(List<String> command, LaunchOptions options, LaunchHost host,
                                   List<String> exported, List<String> passthrough) {
        List<String> names = new ArrayList<>(exported);
        names.add(UCX_LOG_LEVEL);   // rankEnvironment's, or the user's own
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < passthrough.size(); i++) {
            String word = passthrough.get(i);
            if (word.equals("-x") && i + 1 < passthrough.size()) {
                String variable = passthrough.get(++i);
                int eq = variable.indexOf('=');
                if (eq < 0) {
                    names.add(variable);
                } else {
                    rest.addAll(List.of("-genv", variable.substring(0, eq), variable.substring(eq + 1)));
                }
            } else {
                rest.add(word);
            }
        }
        if (!passthrough.contains("--bind-to") && !passthrough.contains("-bind-to")) {
            command.add("-bind-to");
            command.add("none");
        }
        command.add("-n");
        command.add(Integer.toString(options.nativeProcesses()));
        if (!names.isEmpty()) {
            command.add("-genvlist");
            command.add(String.join(",", names));
        }
        command.addAll(rest);
    }

    /**
     * {@code UCX_LOG_LEVEL=error}: messages still unmatched at MPI_Finalize (the engine's acknowledgements in a
     * replicated job, a program's abandoned receive) are reported by MPICH's UCX layer as warnings on stderr, where
     * Open MPI drops them silently; the program's output would be cluttered with them.
     */
    @Override
    public Map<String, String> rankEnvironment(LaunchOptions options, Map<String, String> env) {
        if (!env.containsKey(UCX_LOG_LEVEL)) {
            return Map.of(UCX_LOG_LEVEL, "error");
        }
        return Map.of();
    }
}

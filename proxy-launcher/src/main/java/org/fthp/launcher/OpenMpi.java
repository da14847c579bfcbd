package org.fthp.launcher;

import java.util.List;
import java.util.Map;

/** Open MPI 4.1: mpicc, mpirun, and fthp_proxy.c preloaded into mpirun. */
final class OpenMpi implements NativeMpi {

    @Override
    public String name() {
        return "openmpi";
    }

    /** The plain name, as the probe has always used it: Open MPI's wrappers act on the name they are called by. */
    @Override
    public List<String> wrappers() {
        return List.of("mpicc");
    }

    @Override
    public String launcher() {
        return "mpirun";
    }

    @Override
    public String proxyLibrary() {
        return "libfthp_proxy.so";
    }

    @Override
    public String installHint() {
        return "install Open MPI: apt-get install openmpi-bin libopenmpi-dev (or run scripts/setup.sh)";
    }

    /**
     * {@code [--allow-run-as-root] [--oversubscribe] --bind-to none -np P -x NAME... [--mca
     * orte_allowed_exit_without_sync 1]}: Open MPI refuses root and more processes than cores unless told.
     */
    @Override
    public void addLauncherOptions(List<String> command, LaunchOptions options, LaunchHost host,
                                   List<String> exported, List<String> passthrough) {
        if (host.runningAsRoot() && !passthrough.contains("--allow-run-as-root")) {
            command.add("--allow-run-as-root");
        }
        if (options.nativeProcesses() > host.availableCores() && !passthrough.contains("--oversubscribe")) {
            command.add("--oversubscribe");
        }
        // Replicated runs oversubscribe cores; binding ranks to cores would pile them up.
        if (!passthrough.contains("--bind-to")) {
            command.add("--bind-to");
            command.add("none");
        }
        command.add("-np");
        command.add(Integer.toString(options.nativeProcesses()));
        // Local children inherit the environment anyway; -x also carries it to remote nodes.
        for (String name : exported) {
            command.add("-x");
            command.add(name);
        }
        if (options.coordinators().wanted()) {
            // the proxy library hides dead ranks from mpirun and releases them as clean exits at
            // the end; without this setting mpirun would still call that an improper exit
            command.add("--mca");
            command.add("orte_allowed_exit_without_sync");
            command.add("1");
        }
        command.addAll(passthrough);
    }

    @Override
    public Map<String, String> rankEnvironment(LaunchOptions options, Map<String, String> env) {
        return Map.of();
    }
}

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
     * {@code [--allow-run-as-root] [--oversubscribe] [--bind-to none] -np P -x NAME... [--mca
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
        if (!passthrough.contains("--bind-to") && !placedByMpirun(options, host)) {
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

    /**
     * Whether the job is placed as mpirun places it unasked (Open MPI 4.1: each process bound to a core up to two
     * processes, to a socket beyond), as a program on Open MPI's own Java binding is under a plain
     * {@code mpirun -np N java ...}: a job whose processes each have a core and share it with nothing else of the
     * job's. Its two ranks otherwise land on the two cores as the scheduler moves them, and a rank sharing a core
     * with its peer's spinning wait, or its compiler thread sharing the peer's, is several times slower from one
     * run to the next. Replicas, spares, coordinators or more processes than cores: {@code --bind-to none}, as
     * processes bound to cores would pile up there (mpirun counts the slots, not the threads that poll them).
     */
    static boolean placedByMpirun(LaunchOptions options, LaunchHost host) {
        return options.replicas() == 0 && options.spares() == 0 && !options.coordinators().wanted()
                && options.nativeProcesses() <= host.availableCores();
    }

    @Override
    public Map<String, String> rankEnvironment(LaunchOptions options, Map<String, String> env) {
        return Map.of();
    }
}

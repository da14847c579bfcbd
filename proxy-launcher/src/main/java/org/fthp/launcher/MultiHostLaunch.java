package org.fthp.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a job with coordinators needs on several hosts ({@code --host h0:4,h1:4} / {@code --hostfile F} naming
 * two or more): the placement (replicas on another host than their twins, given to mpirun as a rankfile), one
 * coordinator per host on that host's address, the proxy library in every host's orted through the launch agent
 * {@code scripts/fthp-orted.sh}, reporting to that host's coordinator, and the ranks' output through fthp-run's
 * {@link RankOutputSink}. A job without coordinators (unreplicated, nothing injected) needs none of this: mpirun
 * gets the user's options unchanged, as on one host.
 *
 * <p>On MPICH the same plan takes hydra's shapes: the placement as an ordered {@code -hosts} list
 * ({@link ReplicaPlacement#hydraHosts}), and hydra's launcher as {@code -launcher rsh -launcher-exec
 * scripts/mpich-hydra-rsh.sh}, which runs the user's remote agent ({@code -launcher-exec A}, else ssh) with the
 * hydra proxy library preloaded into every remote {@code hydra_pmi_proxy}, reporting to that host's coordinator.
 */
final class MultiHostLaunch {

    static final String NODE_OF_ENV = "FTHP_COORDINATOR_OF";
    /** mpirun's options that place processes: with several hosts fthp-run places them itself. */
    private static final Set<String> PLACEMENT_OPTIONS = Set.of("--rankfile", "-rf", "--map-by", "-map-by",
            "--npernode", "-npernode", "--ppr", "-ppr", "--bynode", "-bynode", "--byslot", "-byslot");

    private final HostList hosts;
    private final ReplicaPlacement placement;
    private final List<String> bind;
    private final boolean[] local;
    private final RemoteAgent agent;
    private final Path home;
    private final NativeMpi mpi;
    /** The Slurm allocation the hosts come from, or null (hosts from --host/--hostfile). */
    private final SlurmAllocation slurm;

    /** hydra's options fthp-run replaces on several hosts: the hosts (it places every rank) and the launcher. */
    private static final Set<String> HYDRA_REPLACED = Set.of("--host", "-host", "-H", "-hosts", "--hosts",
            "--hostfile", "-hostfile", "-f", "--machinefile", "-machinefile", "-launcher", "--launcher",
            "-launcher-exec", "--launcher-exec");

    private MultiHostLaunch(HostList hosts, ReplicaPlacement placement, List<String> bind, boolean[] local,
                            RemoteAgent agent, Path home, NativeMpi mpi, SlurmAllocation slurm) {
        this.slurm = slurm;
        this.hosts = hosts;
        this.placement = placement;
        this.bind = bind;
        this.local = local;
        this.agent = agent;
        this.home = home;
        this.mpi = mpi;
    }

    /** The multi-host plan for {@code options}, or null when the job runs as on one host. */
    static MultiHostLaunch plan(LaunchOptions options, Map<String, String> env, Path home) throws LaunchException {
        return plan(options, env, home, NativeMpi.OPEN_MPI);
    }

    /** As above, for the job's library {@code mpi}. */
    static MultiHostLaunch plan(LaunchOptions options, Map<String, String> env, Path home, NativeMpi mpi)
            throws LaunchException {
        if (!options.coordinators().wanted()) {
            return null;   // mpirun reads its own host options, as on one host
        }
        HostList hosts = HostList.of(options.mpirunArgs());
        SlurmAllocation slurm = null;
        if (hosts.count() == 0 && mpi == NativeMpi.OPEN_MPI && SlurmAllocation.of(env) != null) {
            slurm = SlurmAllocation.of(env);
            hosts = slurm.hosts();
        }
        if (!hosts.several()) {
            return null;
        }
        for (String token : options.mpirunArgs()) {
            if (PLACEMENT_OPTIONS.contains(token)) {
                throw LaunchException.usage(token + " cannot be used with several hosts and coordinators: fthp-run"
                        + " places the processes itself (replicas on another host than their twins)");
            }
        }
        if (RemoteAgent.McaOptions.value(options.mpirunArgs(), "orte_launch_agent") != null) {
            throw LaunchException.usage("--mca orte_launch_agent: fthp-run sets the launch agent itself on several"
                    + " hosts (scripts/fthp-orted.sh); a launch agent of your own cannot be chained yet");
        }
        if (options.coordinators().nodes() > 1 && options.coordinators().nodes() != hosts.count()) {
            throw LaunchException.usage("--nodes " + options.coordinators().nodes() + ": on several hosts there is"
                    + " one coordinator per host (" + hosts.count() + ")");
        }
        List<String> bind = new ArrayList<>();
        boolean[] local = new boolean[hosts.count()];
        for (int k = 0; k < hosts.count(); k++) {
            String name = hosts.get(k).name();
            try {
                InetAddress address = InetAddress.getByName(name);
                bind.add(address.getHostAddress());
                local[k] = address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null;
            } catch (IOException e) {
                throw LaunchException.environment("cannot resolve host " + name + ": " + e.getMessage());
            }
        }
        if (!local[0]) {
            throw LaunchException.usage("fthp-run must run on the first host of the list (" + hosts.get(0).name()
                    + "): the primary coordinator and the ranks' output are there");
        }
        RemoteAgent agent = mpi == NativeMpi.MPICH ? RemoteAgent.ofHydra(options.mpirunArgs(), env)
                : slurm != null && RemoteAgent.McaOptions.value(options.mpirunArgs(), RemoteAgent.PARAMETER) == null
                        ? SlurmAllocation.agent(home) : RemoteAgent.of(options.mpirunArgs(), env);
        if (slurm != null) {
            slurm.hintWithoutNoKill();
        }
        ReplicaPlacement placement = ReplicaPlacement.of(hosts, options.ranks(), options.replicas(),
                options.mapReplicas(), options.spares());
        return new MultiHostLaunch(hosts, placement, bind, local, agent, home, mpi, slurm);
    }

    /**
     * The plan for a relaunch with {@code replicas} replicas on the hosts that are still alive: every host of this
     * plan but {@code lost} (host indices), unused ones included (spare hosts a user listed), with as many spares as
     * before. Refused (exit 4) when
     * fthp-run's own host is lost, when one host is left for a replicated job (a replica would share its twin's
     * host), or when the processes no longer fit the live hosts' slots and the first placement fitted.
     */
    MultiHostLaunch without(java.util.Set<Integer> lostNodes, int ranks, int replicas, String mapping)
            throws LaunchException {
        java.util.Set<Integer> lost = new java.util.TreeSet<>(lostNodes);
        if (slurm != null) {
            // Slurm's word on the nodes counts too: one it took down or drained is not relaunched on
            java.util.Set<String> dead = slurm.deadNodes(hostNames());
            for (int k = 0; k < hosts.count(); k++) {
                if (dead.contains(hosts.get(k).name())) {
                    lost.add(k);
                }
            }
        }
        if (lost.contains(0)) {
            throw LaunchException.rankLost("cannot relaunch: fthp-run's own host " + hosts.get(0).name()
                    + " is lost");
        }
        List<HostList.Host> live = new ArrayList<>();
        List<String> liveBind = new ArrayList<>();
        List<Boolean> liveLocal = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        for (int k = 0; k < hosts.count(); k++) {
            if (lost.contains(k)) {
                gone.add(hosts.get(k).name());
                continue;
            }
            live.add(hosts.get(k));
            liveBind.add(bind.get(k));
            liveLocal.add(local[k]);
        }
        HostList left = new HostList(live);
        int processes = ranks + replicas;
        if ((replicas > 0 && left.count() < 2) || (!placement.oversubscribed() && processes > left.totalSlots())) {
            throw LaunchException.rankLost("cannot relaunch: too few hosts left (" + left.count() + " live, "
                    + left.totalSlots() + " slots; lost " + String.join(",", gone) + ") for " + ranks + " ranks and "
                    + replicas + " replicas on other hosts than their twins");
        }
        boolean[] l = new boolean[live.size()];
        for (int k = 0; k < l.length; k++) {
            l[k] = liveLocal.get(k);
        }
        return new MultiHostLaunch(left, ReplicaPlacement.of(left, ranks, replicas, mapping, placement.spares()),
                liveBind, l, agent,
                home, mpi, slurm);
    }

    /** The host names, in order. */
    List<String> hostNames() {
        List<String> names = new ArrayList<>();
        for (int k = 0; k < hosts.count(); k++) {
            names.add(hosts.get(k).name());
        }
        return names;
    }

    /** One coordinator per host, grouped as the user asked or about √hosts to a leader. */
    CoordinatorPlan coordinatorPlan(CoordinatorPlan asked) {
        int group = asked.nodes() == hosts.count() ? asked.groupSize() : CoordinatorPlan.defaultGroupSize(hosts.count());
        return new CoordinatorPlan(hosts.count(), group, asked.events());
    }

    /** mpirun's options added after the user's: the placement, the launch agent, the report directory. */
    List<String> mpirunArgs(Path rankfile, String reportDir) {
        List<String> more = new ArrayList<>(List.of("--rankfile", rankfile.toString()));
        if (placement.oversubscribed()) {
            more.add("--oversubscribe");
        }
        more.addAll(List.of(
                "--mca", "orte_launch_agent", home.resolve("scripts/fthp-orted.sh").toString(),
                // read by fthp-orted.sh from the orted command line (the environment does not travel to orted)
                "--mca", "fthp_proxy_report_dir", reportDir,
                // a host whose ranks have all died would otherwise hold every survivor in MPI_Finalize's fence
                "--mca", "async_mpi_finalize", "1",
                // without it mpirun ends the whole job when it loses a remote orted (a host failed); with it, it
                // goes on but waits for that host's processes for ever: fthp-run ends it once the coordinators
                // say every process has finished or failed (docs/notes/hosts.md, section 7)
                "--mca", "orte_enable_recovery", "1",
                "-x", NODE_OF_ENV, "-x", RankOutputSink.ADDRESS_ENV));
        if (slurm != null) {
            more.addAll(SlurmAllocation.mpirunArgs());
        }
        return more;
    }

    /**
     * The launcher's options for the job: on Open MPI the user's and then {@link #mpirunArgs}; on MPICH the user's
     * without their hosts and launcher (fthp-run's replace them), then {@code -hosts} in placement order, hydra's
     * launcher through scripts/mpich-hydra-rsh.sh, and the variables the ranks need (as {@code -x NAME}, which
     * {@link Mpich} turns into {@code -genvlist}).
     */
    List<String> launcherArgs(List<String> userArgs, Path dir, String reportDir) throws LaunchException {
        List<String> args = new ArrayList<>();
        if (mpi != NativeMpi.MPICH) {
            // the user's host options are replaced by this plan's hosts: after a lost host mpirun must not start a
            // daemon there
            args.addAll(withoutOptions(userArgs, HOST_OPTIONS));
            args.addAll(List.of("--host", hostsOption()));
            args.addAll(mpirunArgs(writeRankfile(dir), reportDir));
            return args;
        }
        args.addAll(withoutOptions(userArgs, HYDRA_REPLACED));
        args.addAll(List.of("-hosts", placement.hydraHosts(),
                "-launcher", "rsh", "-launcher-exec", home.resolve("scripts/mpich-hydra-rsh.sh").toString(),
                "-x", NODE_OF_ENV, "-x", RankOutputSink.ADDRESS_ENV));
        return args;
    }

    private static final Set<String> HOST_OPTIONS = Set.of("--host", "-host", "-H", "--hostfile", "-hostfile",
            "--machinefile", "-machinefile");

    /** {@code userArgs} without the options in {@code dropped}, each with its value ({@code -o v} or {@code --o=v}). */
    private static List<String> withoutOptions(List<String> userArgs, Set<String> dropped) {
        List<String> args = new ArrayList<>();
        for (int i = 0; i < userArgs.size(); i++) {
            String token = userArgs.get(i);
            String option = token.startsWith("--") && token.contains("=") ? token.substring(0, token.indexOf('='))
                    : token;
            if (dropped.contains(option)) {
                i += option.equals(token) ? 1 : 0;   // and its value
                continue;
            }
            args.add(token);
        }
        return args;
    }

    /** {@code h0:2,h1:2}: this plan's hosts and slots, for mpirun's --host. */
    String hostsOption() {
        List<String> list = new ArrayList<>();
        for (int k = 0; k < hosts.count(); k++) {
            list.add(hosts.get(k).name() + ":" + hosts.get(k).slots());
        }
        return String.join(",", list);
    }

    /**
     * What the launcher's own environment needs on several hosts: on MPICH, what scripts/mpich-hydra-rsh.sh reads
     * (the remote agent, and the report directory every host's coordinator makes its pipe in); nothing on Open MPI,
     * whose launch agent reads its command line.
     */
    Map<String, String> launcherEnvironment(String reportDir) {
        if (mpi != NativeMpi.MPICH) {
            return Map.of();
        }
        return Map.of("FTHP_HYDRA_AGENT", String.join(" ", agent.words()), "FTHP_PROXY_REPORT_DIR", reportDir,
                LostHostsFile.ENV, LostHostsFile.in(Path.of(reportDir)).path().toString());
    }

    /**
     * The coordinators lost a host ({@code what}: their {@code node=K ...} line, node K being host K). On MPICH its
     * addresses go to the {@link LostHostsFile} in {@code reportDir}, so the library in mpiexec.hydra hides the end
     * of that host's proxy connection for good (mpiexec would otherwise end the job); Open MPI's mpirun runs in
     * recovery mode and needs nothing.
     */
    void hostLost(String what, String reportDir) {
        if (mpi != NativeMpi.MPICH) {
            return;
        }
        String node = CheckpointReport.fields(what).get("node");
        if (node == null || !node.matches("\\d+") || Integer.parseInt(node) >= hosts.count()) {
            System.err.println("fthp-run: a lost host the launcher cannot place (" + what + ")");
            return;
        }
        int k = Integer.parseInt(node);
        java.util.Set<String> addresses = new java.util.LinkedHashSet<>(List.of(bind.get(k)));
        try {
            for (InetAddress a : InetAddress.getAllByName(hosts.get(k).name())) {
                addresses.add(a.getHostAddress());
            }
        } catch (IOException e) {
            // the address resolved at the start is listed
        }
        try {
            LostHostsFile.in(Path.of(reportDir)).add(addresses);
        } catch (IOException e) {
            System.err.println("fthp-run: cannot tell mpiexec.hydra that " + hosts.get(k).name() + " was lost: "
                    + e.getMessage());
        }
    }

    /** Writes the rankfile into {@code dir} (on this host: only mpirun reads it). */
    Path writeRankfile(Path dir) throws LaunchException {
        Path file = dir.resolve("rankfile");
        try {
            Files.writeString(file, placement.rankfile());
        } catch (IOException e) {
            throw LaunchException.environment("cannot write the rankfile " + file + ": " + e.getMessage());
        }
        return file;
    }

    Coordinators startCoordinators(CoordinatorPlan plan, int ranks, int replicas, Path java, Path runtimeJar,
                                   CheckpointPlan checkpoint, String reportDir) throws LaunchException {
        return startCoordinators(plan, ranks, replicas, java, runtimeJar, checkpoint, reportDir,
                Coordinators.newSecret());
    }

    Coordinators startCoordinators(CoordinatorPlan plan, int ranks, int replicas, Path java, Path runtimeJar,
                                   CheckpointPlan checkpoint, String reportDir, String secretHex)
            throws LaunchException {
        return Coordinators.startOnHosts(plan, hosts, bind, local, agent, home.resolve("scripts/fthp-coordinator.sh"),
                ranks, replicas, java, runtimeJar, checkpoint, reportDir, placement.coordinatorOf(), secretHex);
    }

    ReplicaPlacement placement() {
        return placement;
    }

    /** This host's address on the job's network, where the output sink listens. */
    String launchAddress() {
        return bind.get(0);
    }

    /** For --verbose. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        StringBuilder h = new StringBuilder("hosts:");
        for (int k = 0; k < hosts.count(); k++) {
            h.append(' ').append(hosts.get(k).name()).append('=').append(bind.get(k)).append(" (")
                    .append(hosts.get(k).slots()).append(" slots").append(local[k] ? ", this host" : "").append(')');
        }
        lines.add(h.toString());
        lines.add("remote agent: " + String.join(" ", agent.words()));
        if (slurm != null) {
            lines.add("Slurm allocation: " + slurm.describe());
        }
        lines.addAll(placement.table());
        return lines;
    }
}

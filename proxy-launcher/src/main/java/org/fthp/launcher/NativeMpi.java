package org.fthp.launcher;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What fthp-run must know of one native MPI library to launch a job on it: the compiler wrapper its ABI is probed
 * with, its launcher and that launcher's command line, and the library preloaded into the launcher to hide deaths
 * from it. Everything else about a library (handles, status layout, constants, tag bound) the ranks learn from the
 * ABI description, never from here.
 */
public sealed interface NativeMpi permits OpenMpi, Mpich {

    NativeMpi OPEN_MPI = new OpenMpi();
    NativeMpi MPICH = new Mpich();

    /** Every library fthp-run knows, the default first. */
    List<NativeMpi> ALL = List.of(OPEN_MPI, MPICH);

    /** The name on the command line ({@code --mpi NAME}); also the ABI description's {@code library.family}. */
    String name();

    /** The compiler wrappers the ABI probe may use, in order of preference, found on the PATH. */
    List<String> wrappers();

    /** The native launcher's name on the PATH (FTHP_MPIRUN overrides). */
    String launcher();

    /** The library (in proxy-launcher/target) preloaded into the launcher when coordinators decide about deaths. */
    String proxyLibrary();

    /** How to install it, for an error message. */
    String installHint();

    /**
     * The launcher's options before the program: process count, placement, and the environment variables
     * {@code exported} to every rank (their values are in the launcher's environment; only names are written
     * here, so a secret never appears on a command line), then the user's {@code passthrough} options.
     */
    void addLauncherOptions(List<String> command, LaunchOptions options, LaunchHost host, List<String> exported,
                            List<String> passthrough);

    /** Settings this library's ranks need besides the job's, unless the user's environment {@code env} has them. */
    Map<String, String> rankEnvironment(LaunchOptions options, Map<String, String> env);

    /** The library called {@code name}, or a usage error listing the known ones. */
    static NativeMpi named(String name) throws LaunchException {
        for (NativeMpi mpi : ALL) {
            if (mpi.name().equals(name)) {
                return mpi;
            }
        }
        throw LaunchException.usage("--mpi knows " + String.join(" and ", ALL.stream().map(NativeMpi::name).toList())
                + ", not \"" + name + "\"");
    }

    /** The library whose {@link #name()} is an ABI description's family, if fthp-run knows it. */
    static Optional<NativeMpi> ofFamily(String family) {
        return ALL.stream().filter(m -> m.name().equals(family)).findFirst();
    }

    /**
     * The library a job runs on when {@code --mpi} is not given: Open MPI when it is installed (its ompi_info is on
     * the PATH), else MPICH when its launcher is, else Open MPI (whose absence the launcher search then reports).
     */
    static NativeMpi installedDefault(Map<String, String> env) {
        if (MpirunLocator.onPath(env, "ompi_info").isEmpty() && MpirunLocator.onPath(env, MPICH.launcher()).isPresent()) {
            return MPICH;
        }
        return OPEN_MPI;
    }
}

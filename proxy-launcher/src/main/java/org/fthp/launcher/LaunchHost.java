package org.fthp.launcher;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Facts about this machine and installation that shape the mpirun command line.
 *
 * @param mpirun          the native launcher
 * @param java            the java binary every rank runs (22+, for FFM)
 * @param runtimeJar      our shaded jar: the {@code mpi} package, EMPI binding, message logs
 * @param runningAsRoot   Open MPI refuses to run as root unless told to
 * @param availableCores  more ranks than cores needs --oversubscribe
 * @param mpi             the native MPI whose launcher {@code mpirun} is
 * @param aotCache        the ranks' ahead-of-time cache, when one was made from this runtime jar and JVM
 */
public record LaunchHost(Path mpirun, Path java, Path runtimeJar, boolean runningAsRoot, int availableCores,
                         NativeMpi mpi, Optional<Path> aotCache) {

    /** Without an ahead-of-time cache. */
    public LaunchHost(Path mpirun, Path java, Path runtimeJar, boolean runningAsRoot, int availableCores,
                      NativeMpi mpi) {
        this(mpirun, java, runtimeJar, runningAsRoot, availableCores, mpi, Optional.empty());
    }

    /** On Open MPI. */
    public LaunchHost(Path mpirun, Path java, Path runtimeJar, boolean runningAsRoot, int availableCores) {
        this(mpirun, java, runtimeJar, runningAsRoot, availableCores, NativeMpi.OPEN_MPI);
    }
}

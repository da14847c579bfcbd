package org.fthp.empi.fast;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fthp.empi.Empi;
import org.fthp.empi.abi.AbiProbe;
import org.fthp.empi.abi.CachedBuild;

/**
 * The native library of the fat hot-path calls ({@code empi_fastpath.c}): compiled with the installed MPI's
 * compiler wrapper on first use and cached beside the ABI description, keyed by the source, the wrapper and the
 * JDK whose {@code jni.h} it includes, so every rank of every later job loads the cached file and each MPI flavour
 * gets its own (Open MPI's and MPICH's handles and statuses differ); {@link CachedBuild} makes the ranks that
 * start together build it once. The loaders check that the library's request and status sizes are EMPI's before they
 * use it (a library built with another MPI's headers is refused).
 */
public final class FastPathLibrary {

    static final String SOURCE = "empi_fastpath.c";

    private static volatile Path built;

    private FastPathLibrary() {}

    /** The library, built if not cached yet; IOException when there is no compiler wrapper or it fails. */
    public static Path path() throws IOException {
        Path p = built;
        if (p == null) {
            synchronized (FastPathLibrary.class) {
                p = built;
                if (p == null) {
                    p = ensureBuilt();
                    built = p;
                }
            }
        }
        return p;
    }

    private static Path ensureBuilt() throws IOException {
        Path mpicc = wrapper(Empi.abi().family());
        byte[] source = CachedBuild.resource(FastPathLibrary.class, SOURCE);
        Path javaHome = Path.of(System.getProperty("java.home"));
        return CachedBuild.once("fastpath", CachedBuild.key(source, mpicc, javaHome.toString()), "so", work -> {
            Path c = work.resolve(SOURCE);
            Files.write(c, source);
            Path so = work.resolve("libfastpath.so");
            Path include = javaHome.resolve("include");
            CachedBuild.run(List.of(mpicc.toString(), "-O2", "-shared", "-fPIC", "-I" + include,
                    "-I" + include.resolve("linux"), "-o", so.toString(), c.toString()), work, null,
                    "cannot build " + SOURCE);
            return so;
        });
    }

    /**
     * The compiler wrapper of the library EMPI runs over: the ranks of an MPICH job launched by fthp-run get the ABI
     * description (FTHP_EMPI_ABI) but not the wrapper it was probed with, and Debian installs MPICH's beside Open
     * MPI's as {@code mpicc.mpich}. FTHP_MPICC, when set, names it as for the probe.
     */
    static Path wrapper(String family) throws IOException {
        String override = System.getenv("FTHP_MPICC");
        if ("mpich".equals(family) && (override == null || override.isBlank())) {
            String path = System.getenv("PATH");
            for (String dir : path == null ? new String[0] : path.split(":")) {
                Path p = dir.isEmpty() ? null : Path.of(dir, "mpicc.mpich");
                if (p != null && Files.isExecutable(p)) {
                    return p.toAbsolutePath();
                }
            }
        }
        return AbiProbe.findMpicc();
    }
}

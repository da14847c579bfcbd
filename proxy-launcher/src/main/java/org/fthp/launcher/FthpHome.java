package org.fthp.launcher;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The installation directory ({@code FTHP_HOME}) and the runtime jar inside it.
 *
 * <p>bin/fthp-run exports FTHP_HOME; when FthpRun is started some other way we fall back to the
 * location of our own jar, which lives in {@code FTHP_HOME/proxy-launcher/target}.
 */
public final class FthpHome {

    static final String RUNTIME_JAR = "replication/target/fthp-mpi.jar";

    private FthpHome() {}

    public static Path locate(Map<String, String> env) throws LaunchException {
        String explicit = env.get("FTHP_HOME");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        try {
            Path ownJar = Path.of(FthpHome.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path home = ownJar.toAbsolutePath().getParent();
            for (int up = 0; up < 2 && home != null; up++) {
                home = home.getParent();
            }
            if (home != null) {
                return home;
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // fall through to the message below
        }
        throw LaunchException.environment("cannot tell where FTHP-J is installed; set FTHP_HOME or use bin/fthp-run");
    }

    /** {@code FTHP_MPI_JAR}, else the shaded jar built by the replication module. */
    static final String PROXY_LIBRARY = "proxy-launcher/target/libfthp_proxy.so";

    /** The library preloaded into mpirun when coordinators decide about failures ({@code FTHP_PROXY_LIB} overrides). */
    public static Path proxyLibrary(Map<String, String> env) throws LaunchException {
        return proxyLibrary(env, NativeMpi.OPEN_MPI);
    }

    /** The library preloaded into {@code mpi}'s launcher when coordinators decide about failures. */
    public static Path proxyLibrary(Map<String, String> env, NativeMpi mpi) throws LaunchException {
        String explicit = env.get("FTHP_PROXY_LIB");
        Path lib = explicit != null && !explicit.isBlank() ? Path.of(explicit)
                : locate(env).resolve(PROXY_LIBRARY).resolveSibling(mpi.proxyLibrary());
        if (!java.nio.file.Files.isRegularFile(lib)) {
            throw LaunchException.environment("proxy library " + lib + " not found (run scripts/build.sh)");
        }
        return lib.toAbsolutePath();
    }

    public static Path runtimeJar(Map<String, String> env) throws LaunchException {
        String explicit = env.get("FTHP_MPI_JAR");
        Path jar = explicit != null && !explicit.isBlank()
                ? Path.of(explicit)
                : locate(env).resolve(RUNTIME_JAR);
        if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
            throw LaunchException.environment("runtime jar " + jar + " not found"
                    + (explicit != null && !explicit.isBlank() ? " (named by FTHP_MPI_JAR)" : "")
                    + (explicit != null && !explicit.isBlank() ? "" : "; run scripts/build.sh"));
        }
        return jar.toAbsolutePath();
    }
}

package org.fthp.launcher;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Finds the native launcher: {@code FTHP_MPIRUN}, else the library's launcher ({@code mpirun}, ...) on the PATH. */
public final class MpirunLocator {

    private MpirunLocator() {}

    /** Open MPI's {@code mpirun}. */
    public static Path locate(Map<String, String> env) throws LaunchException {
        return locate(env, NativeMpi.OPEN_MPI);
    }

    public static Path locate(Map<String, String> env, NativeMpi mpi) throws LaunchException {
        String explicit = env.get("FTHP_MPIRUN");
        if (explicit != null && !explicit.isBlank()) {
            Path mpirun = Path.of(explicit);
            if (!Files.isExecutable(mpirun)) {
                throw LaunchException.environment("FTHP_MPIRUN names " + mpirun + ", which is not an executable file");
            }
            return mpirun;
        }
        return onPath(env, mpi.launcher()).map(MpirunLocator::canonicalDirectory).orElseThrow(
                () -> LaunchException.environment("no native MPI launcher (" + mpi.launcher() + ") found; "
                        + mpi.installHint()));
    }

    /** The first executable file called {@code name} in a directory of the PATH, as found (links kept). */
    static Optional<Path> onPath(Map<String, String> env, String name) {
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Resolves the directory, not the file: Open MPI derives its install prefix
     * from an absolute argv[0], and {@code /bin/mpirun} (on merged-/usr systems
     * /bin links to /usr/bin) gives the prefix "/", which Open MPI 4.1 rejects
     * ("A prefix was supplied to mpirun that only contained slashes").
     * The file itself stays a link: mpirun is one binary that acts on its name.
     */
    static Path canonicalDirectory(Path mpirun) {
        try {
            return mpirun.toAbsolutePath().getParent().toRealPath().resolve(mpirun.getFileName());
        } catch (java.io.IOException e) {
            return mpirun;
        }
    }
}

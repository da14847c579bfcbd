package org.fthp.launcher;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Finds the native launcher: {@code FTHP_MPIRUN}, else {@code mpirun} on the PATH. */
public final class MpirunLocator {

    private MpirunLocator() {}

    public static Path locate(Map<String, String> env) throws LaunchException {
        String explicit = env.get("FTHP_MPIRUN");
        if (explicit != null && !explicit.isBlank()) {
            Path mpirun = Path.of(explicit);
            if (!Files.isExecutable(mpirun)) {
                throw LaunchException.environment("FTHP_MPIRUN names " + mpirun + ", which is not an executable file");
            }
            return mpirun;
        }
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "mpirun");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return canonicalDirectory(candidate);
            }
        }
        throw LaunchException.environment("no native MPI launcher (mpirun) found; install Open MPI: "
                + "apt-get install openmpi-bin libopenmpi-dev (or run scripts/setup.sh)");
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

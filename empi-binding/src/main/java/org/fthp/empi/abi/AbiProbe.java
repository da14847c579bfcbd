package org.fthp.empi.abi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds or produces the ABI description of the installed MPI library.
 *
 * <p>Order: {@code FTHP_EMPI_ABI} names a ready file; otherwise the probe is
 * compiled with {@code FTHP_MPICC} (or {@code mpicc} on the PATH) and run once,
 * its output cached under {@code FTHP_CACHE_DIR} (default
 * {@code ~/.cache/fthp}) keyed by the probe source and the compiler wrapper
 * ({@link CachedBuild}), so every rank of every later job reads the cached file.
 */
public final class AbiProbe {

    public static final String PROBE_RESOURCE = "empi_abi_probe.c";

    private AbiProbe() {}

    public static EmpiAbi load() throws IOException {
        String explicit = System.getenv("FTHP_EMPI_ABI");
        if (explicit != null && !explicit.isBlank()) {
            Path file = Path.of(explicit);
            if (!Files.isRegularFile(file)) {
                throw new IOException("FTHP_EMPI_ABI names " + file + ", which does not exist");
            }
            return EmpiAbi.read(file);
        }
        return EmpiAbi.read(ensureCached());
    }

    /** Returns the cached description for the current {@code mpicc}, probing if needed. */
    public static Path ensureCached() throws IOException {
        Path mpicc = findMpicc();
        byte[] source = CachedBuild.resource(AbiProbe.class, PROBE_RESOURCE);
        return CachedBuild.once("abi", CachedBuild.key(source, mpicc), "properties", work -> {
            Path c = work.resolve(PROBE_RESOURCE);
            Files.write(c, source);
            Path exe = work.resolve("empi_abi_probe");
            run(List.of(mpicc.toString(), "-O0", "-o", exe.toString(), c.toString(), "-ldl"), work, null);
            Path out = work.resolve("abi.properties");
            run(List.of(exe.toString()), work, out);
            EmpiAbi.read(out); // refuse to cache something unreadable
            return out;
        });
    }

    public static Path findMpicc() throws IOException {
        String override = System.getenv("FTHP_MPICC");
        if (override != null && !override.isBlank()) {
            Path p = Path.of(override);
            if (Files.isExecutable(p)) {
                return p.toAbsolutePath();
            }
            throw new IOException("FTHP_MPICC=" + override + " is not an executable");
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (dir.isEmpty()) {
                    continue;
                }
                // keep the name as found: Open MPI's wrappers are one binary that
                // decides what to be from the name it was called by
                Path p = Path.of(dir, "mpicc");
                if (Files.isExecutable(p)) {
                    return p.toAbsolutePath();
                }
            }
        }
        throw new IOException("no native MPI found: mpicc is not on the PATH "
                + "(install Open MPI: apt-get install openmpi-bin libopenmpi-dev, or set FTHP_MPICC)");
    }

    public static Path cacheDir() {
        String dir = System.getenv("FTHP_CACHE_DIR");
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "fthp");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "fthp");
    }

    private static void run(List<String> command, Path dir, Path stdout) throws IOException {
        CachedBuild.run(command, dir, stdout, "MPI ABI probe failed");
    }

    /** Prints the path of the cached description; used by fthp-run and the scripts. */
    public static void main(String[] args) throws IOException {
        System.out.println(ensureCached());
    }
}

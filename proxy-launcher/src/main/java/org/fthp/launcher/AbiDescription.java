package org.fthp.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure the ABI description of the native MPI exists before any rank starts.
 *
 * <p>Probing compiles a small C program with mpicc; if every rank did it at start-up they would
 * race for the same cache entry and pay the compile N times. We run the probe once here and hand
 * its path to the ranks in {@code FTHP_EMPI_ABI}.
 */
public final class AbiDescription {

    static final String PROBE_CLASS = "org.fthp.empi.abi.AbiProbe";
    private static final long PROBE_TIMEOUT_SECONDS = 300;

    private AbiDescription() {}

    /** The existing {@code FTHP_EMPI_ABI}, else the path printed by the probe run with Open MPI's wrapper. */
    public static Path ensure(Map<String, String> env, Path java, Path runtimeJar) throws LaunchException {
        return ensure(env, java, runtimeJar, NativeMpi.OPEN_MPI);
    }

    /**
     * The existing {@code FTHP_EMPI_ABI}, else the path printed by the probe compiled with {@code mpi}'s wrapper
     * ({@code FTHP_MPICC} overrides). The probe caches one description per wrapper, so each library has its own.
     */
    public static Path ensure(Map<String, String> env, Path java, Path runtimeJar, NativeMpi mpi)
            throws LaunchException {
        String explicit = env.get(MpirunCommand.ABI_ENV);
        if (explicit != null && !explicit.isBlank()) {
            Path abi = Path.of(explicit);
            if (!Files.isRegularFile(abi)) {
                throw LaunchException.environment(MpirunCommand.ABI_ENV + " names " + abi + ", which does not exist");
            }
            return abi.toAbsolutePath();
        }
        String mpicc = env.get(MPICC_ENV);
        if (mpicc == null || mpicc.isBlank()) {
            mpicc = mpi.wrappers().stream().map(w -> MpirunLocator.onPath(env, w)).flatMap(Optional::stream)
                    .findFirst().map(Path::toString).orElseThrow(() -> LaunchException.environment(
                            "no compiler wrapper of " + mpi.name() + " (" + String.join(" or ", mpi.wrappers())
                                    + ") on the PATH; " + mpi.installHint()));
        }
        return probe(java, runtimeJar, mpicc);
    }

    /** The compiler wrapper the probe uses (read by AbiProbe). */
    static final String MPICC_ENV = "FTHP_MPICC";

    /** The library an ABI description was measured on: its {@code library.family} ("openmpi", "mpich", ...). */
    public static String family(Path abi) throws LaunchException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(abi)) {
            p.load(in);
        } catch (IOException e) {
            throw LaunchException.environment("cannot read the ABI description " + abi + ": " + e.getMessage());
        }
        return p.getProperty("library.family", "unknown").strip();
    }

    private static Path probe(Path java, Path runtimeJar, String mpicc) throws LaunchException {
        List<String> command = List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", runtimeJar.toString(), PROBE_CLASS);
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT);
            builder.environment().put(MPICC_ENV, mpicc);
            Process probe = builder.start();
            // Drain stderr concurrently so a chatty compiler cannot block the probe on a full pipe.
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(probe.getErrorStream()));
            String stdout = readAll(probe.getInputStream());
            if (!probe.waitFor(PROBE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
                throw LaunchException.environment("the ABI probe did not finish in " + PROBE_TIMEOUT_SECONDS + " s");
            }
            if (probe.exitValue() != 0) {
                throw LaunchException.environment("the ABI probe failed (exit " + probe.exitValue() + "):\n"
                        + stderr.join().strip());
            }
            Path abi = lastLine(stdout);
            if (abi == null || !Files.isRegularFile(abi)) {
                throw LaunchException.environment("the ABI probe printed no usable path: \"" + stdout.strip() + "\"");
            }
            return abi.toAbsolutePath();
        } catch (IOException | UncheckedIOException e) {
            throw LaunchException.environment("cannot run the ABI probe: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LaunchException.environment("interrupted while probing the MPI ABI");
        }
    }

    private static Path lastLine(String output) {
        String[] lines = output.strip().split("\\R");
        String last = lines[lines.length - 1].strip();
        return last.isEmpty() ? null : Path.of(last);
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

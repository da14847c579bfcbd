package org.fthp.empi.abi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds or produces the ABI description of the installed MPI library.
 *
 * <p>Order: {@code FTHP_EMPI_ABI} names a ready file; otherwise the probe is
 * compiled with {@code FTHP_MPICC} (or {@code mpicc} on the PATH) and run once,
 * its output cached under {@code FTHP_CACHE_DIR} (default
 * {@code ~/.cache/fthp}) keyed by the probe source and the compiler wrapper, so
 * every rank of every later job reads the cached file. A file lock makes the
 * ranks of one job that start together produce it once.
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
        byte[] source = probeSource();
        String key = cacheKey(source, mpicc);
        Path dir = cacheDir();
        Files.createDirectories(dir);
        Path target = dir.resolve("abi-" + key + ".properties");
        if (Files.isRegularFile(target)) {
            return target;
        }
        Path lockFile = dir.resolve("abi-" + key + ".lock");
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = ch.lock()) {
            if (Files.isRegularFile(target)) {
                return target;
            }
            Path work = Files.createTempDirectory(dir, "probe-");
            try {
                Path c = work.resolve(PROBE_RESOURCE);
                Files.write(c, source);
                Path exe = work.resolve("empi_abi_probe");
                run(List.of(mpicc.toString(), "-O0", "-o", exe.toString(), c.toString(), "-ldl"), work, null);
                Path out = work.resolve("abi.properties");
                run(List.of(exe.toString()), work, out);
                EmpiAbi.read(out); // refuse to cache something unreadable
                Files.move(out, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                deleteTree(work);
            }
        }
        return target;
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

    static byte[] probeSource() throws IOException {
        try (InputStream in = AbiProbe.class.getResourceAsStream(PROBE_RESOURCE)) {
            if (in == null) {
                throw new IOException("probe source " + PROBE_RESOURCE + " missing from the classpath");
            }
            return in.readAllBytes();
        }
    }

    private static String cacheKey(byte[] source, Path mpicc) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(source);
            md.update(mpicc.toString().getBytes(StandardCharsets.UTF_8));
            md.update(Long.toString(Files.getLastModifiedTime(mpicc.toRealPath()).toMillis()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
        runTool(command, dir, stdout, "MPI ABI probe failed");
    }

    /**
     * Runs a build tool or probe in {@code dir} for at most 120 s, its stdout to {@code stdout} (null: dropped); a
     * failure is an IOException starting with {@code failure}, with the command and what it printed on stderr.
     */
    public static void runTool(List<String> command, Path dir, Path stdout, String failure) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile());
        Path err = dir.resolve("stderr-" + System.nanoTime());
        pb.redirectError(err.toFile());
        pb.redirectOutput(stdout == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stdout.toFile()));
        Process p = pb.start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(failure + " (" + String.join(" ", command) + "):\n" + Files.readString(err));
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Prints the path of the cached description; used by fthp-run and the scripts. */
    public static void main(String[] args) throws IOException {
        System.out.println(ensureCached());
    }
}

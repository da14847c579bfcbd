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
 * Something built with the MPI's compiler wrapper once and kept in the cache directory ({@link AbiProbe#cacheDir}):
 * the ABI description, the JNI path's library. Named by a key over its source and the wrapper (and whatever else it
 * depends on), so every rank of every later job finds the file; a file lock makes the ranks that start together
 * build it once, in a scratch directory of its own, and the finished file is moved into place whole.
 */
public final class CachedBuild {

    /** Builds in {@code work} and returns the finished file there. */
    @FunctionalInterface
    public interface Build {
        Path into(Path work) throws IOException;
    }

    private CachedBuild() {}

    /** The cached {@code prefix-KEY.suffix}, built by {@code build} when it is not there yet. */
    public static Path once(String prefix, String key, String suffix, Build build) throws IOException {
        Path dir = AbiProbe.cacheDir();
        Files.createDirectories(dir);
        Path target = dir.resolve(prefix + "-" + key + "." + suffix);
        if (Files.isRegularFile(target)) {
            return target;
        }
        try (FileChannel ch = FileChannel.open(dir.resolve(prefix + "-" + key + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock ignored = ch.lock()) {
            if (Files.isRegularFile(target)) {
                return target;
            }
            Path work = Files.createTempDirectory(dir, prefix + "-");
            try {
                Files.move(build.into(work), target, StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } finally {
                deleteTree(work);
            }
        }
        return target;
    }

    /**
     * The key of a build from {@code source} with {@code mpicc} (its path and modification time) and {@code more}:
     * 16 hex digits of their SHA-256.
     */
    public static String key(byte[] source, Path mpicc, String... more) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(source);
            md.update(mpicc.toString().getBytes(StandardCharsets.UTF_8));
            md.update(Long.toString(Files.getLastModifiedTime(mpicc.toRealPath()).toMillis())
                    .getBytes(StandardCharsets.UTF_8));
            for (String m : more) {
                md.update(m.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The bytes of resource {@code name} beside {@code owner}. */
    public static byte[] resource(Class<?> owner, String name) throws IOException {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " missing from the classpath");
            }
            return in.readAllBytes();
        }
    }

    /**
     * Runs a build tool or probe in {@code dir} for at most 120 s, its stdout to {@code stdout} (null: dropped); a
     * failure is an IOException starting with {@code failure}, with the command and what it printed on stderr.
     */
    public static void run(List<String> command, Path dir, Path stdout, String failure) throws IOException {
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
}

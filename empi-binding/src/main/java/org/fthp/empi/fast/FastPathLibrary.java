package org.fthp.empi.fast;

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
import java.util.HexFormat;
import java.util.List;

import org.fthp.empi.Empi;
import org.fthp.empi.abi.AbiProbe;

/**
 * The native library of the fat hot-path calls ({@code empi_fastpath.c}): compiled with the installed MPI's
 * compiler wrapper on first use and cached beside the ABI description, keyed by the source, the wrapper and the
 * JDK whose {@code jni.h} it includes, so every rank of every later job loads the cached file and each MPI flavour
 * gets its own (Open MPI's and MPICH's handles and statuses differ). A file lock makes the ranks that start
 * together build it once. The loaders check that the library's request and status sizes are EMPI's before they
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
        byte[] source = source();
        Path javaHome = Path.of(System.getProperty("java.home"));
        String key = key(source, mpicc, javaHome);
        Path dir = AbiProbe.cacheDir();
        Files.createDirectories(dir);
        Path target = dir.resolve("fastpath-" + key + ".so");
        if (Files.isRegularFile(target)) {
            return target;
        }
        try (FileChannel ch = FileChannel.open(dir.resolve("fastpath-" + key + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock ignored = ch.lock()) {
            if (Files.isRegularFile(target)) {
                return target;
            }
            Path work = Files.createTempDirectory(dir, "fastpath-");
            try {
                Path c = work.resolve(SOURCE);
                Files.write(c, source);
                Path so = work.resolve("libfastpath.so");
                Path include = javaHome.resolve("include");
                compile(List.of(mpicc.toString(), "-O2", "-shared", "-fPIC", "-I" + include,
                        "-I" + include.resolve("linux"), "-o", so.toString(), c.toString()), work);
                Files.move(so, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                try (var walk = Files.walk(work)) {
                    for (Path f : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        }
        return target;
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

    private static byte[] source() throws IOException {
        try (InputStream in = FastPathLibrary.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IOException(SOURCE + " missing from the classpath");
            }
            return in.readAllBytes();
        }
    }

    private static String key(byte[] source, Path mpicc, Path javaHome) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(source);
            md.update(mpicc.toString().getBytes(StandardCharsets.UTF_8));
            md.update(Long.toString(Files.getLastModifiedTime(mpicc.toRealPath()).toMillis())
                    .getBytes(StandardCharsets.UTF_8));
            md.update(javaHome.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void compile(List<String> command, Path dir) throws IOException {
        AbiProbe.runTool(command, dir, null, "cannot build " + SOURCE);
    }
}

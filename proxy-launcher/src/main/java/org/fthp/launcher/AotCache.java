package org.fthp.launcher;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The ranks' ahead-of-time cache (JDK 24+ {@code -XX:AOTCache}, JEP 483): the JDK's and the runtime jar's classes
 * a rank loads and links on its way into its main loop, made once by scripts/aot-cache.sh (run by
 * scripts/build.sh) and mapped by every rank JVM instead of being parsed, verified and linked by each of the
 * many JVMs a job or a restart starts at once.
 *
 * <p>The cache ({@value #CACHE}) lies beside the runtime jar with a stamp ({@value #STAMP}) naming the files it
 * was made from: the runtime jar and the java binary's JVM library, each by real path, size, modification time
 * and inode, the jar also by change time. It is used only when all of them still match: the JVM's own check does
 * not notice a rebuilt runtime jar (a Temurin 25.0.3 JVM mapped a cache's classes of a jar whose classes had
 * changed, and ran the old code), so a stale cache is refused here, by the file facts a rewrite or replacement of
 * the jar cannot keep (change time and inode), without reading the jar. The JVM library's change time is left
 * out: a hard link to it (perf's build-id cache makes one) changes it without changing the JVM, and an installed
 * new JDK replaces the file (another inode, another modification time). A refused or missing cache costs only
 * the start-up time it would have saved.
 *
 * <p>{@code FTHP_AOT_CACHE=off} starts the ranks without it (to measure what it saves).
 */
public final class AotCache {

    /** The cache file and its stamp, beside the runtime jar. */
    public static final String CACHE = "fthp-mpi.aot";
    public static final String STAMP = "fthp-mpi.aot.stamp";
    /** {@code off}: no cache for this job's ranks. */
    public static final String SWITCH_ENV = "FTHP_AOT_CACHE";

    /** The JVM library inside a JDK, the file whose build the cache is tied to. */
    private static final String JVM_LIBRARY = "lib/server/libjvm.so";

    /**
     * Java options of the user's that choose their own cache or archive, or train one: then the user's choice
     * stands alone (two caches on one command line make the JVM refuse to start).
     */
    private static final List<String> OWN_ARCHIVE_OPTIONS = List.of("-XX:AOTCache=", "-XX:AOTCacheOutput=",
            "-XX:AOTMode=", "-XX:AOTConfiguration=", "-XX:SharedArchiveFile=", "-XX:ArchiveClassesAtExit=",
            "-Xshare:");

    private AotCache() {}

    /**
     * The cache for ranks running {@code java} with {@code runtimeJar}, when one was made from exactly these
     * files and {@code env} does not switch it off.
     */
    public static Optional<Path> find(Path runtimeJar, Path java, Map<String, String> env) {
        if ("off".equalsIgnoreCase(env.getOrDefault(SWITCH_ENV, ""))) {
            return Optional.empty();
        }
        Path cache = runtimeJar.resolveSibling(CACHE);
        Path stamp = runtimeJar.resolveSibling(STAMP);
        if (!Files.isRegularFile(cache) || !Files.isRegularFile(stamp)) {
            return Optional.empty();
        }
        try {
            Properties recorded = new Properties();
            try (Reader in = Files.newBufferedReader(stamp, StandardCharsets.UTF_8)) {
                recorded.load(in);
            }
            return recorded.equals(facts(runtimeJar, java)) ? Optional.of(cache.toAbsolutePath())
                    : Optional.empty();
        } catch (IOException | IllegalArgumentException | UnsupportedOperationException e) {
            // an unreadable stamp, a file gone, no unix attributes: no cache, the ranks start as without one
            return Optional.empty();
        }
    }

    /** Whether the user's java options pick an archive, a cache or a training of their own. */
    public static boolean userChoosesOwn(List<String> javaOptions) {
        return javaOptions.stream().anyMatch(o -> OWN_ARCHIVE_OPTIONS.stream().anyMatch(o::startsWith));
    }

    /** The java options that make a rank JVM map {@code cache}. */
    public static List<String> javaOptions(Path cache) {
        // a cache the JVM cannot map after all (another collector, a heap too large for compressed pointers)
        // leaves the rank as fast as without one; its complaint would land in the program's own output
        return List.of("-XX:AOTCache=" + cache, "-Xlog:aot=off");
    }

    /** Records, beside the cache made for {@code runtimeJar}, the files it was made from (scripts/aot-cache.sh). */
    static void stamp(Path runtimeJar, Path java) throws IOException {
        if (!Files.isRegularFile(runtimeJar.resolveSibling(CACHE))) {
            throw new IOException("no " + CACHE + " beside " + runtimeJar + " to stamp");
        }
        Properties facts = facts(runtimeJar, java);
        Path stamp = runtimeJar.resolveSibling(STAMP);
        Path partial = runtimeJar.resolveSibling(STAMP + ".partial");
        try (Writer out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
            facts.store(out, "the files " + CACHE + " was made from (org.fthp.launcher.AotCache)");
        }
        try {
            Files.move(partial, stamp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, stamp, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** What identifies the runtime jar and the JVM now: path, size, times and inode of each. */
    static Properties facts(Path runtimeJar, Path java) throws IOException {
        Path jvmHome = java.toRealPath().getParent().getParent();
        Properties p = new Properties();
        p.putAll(file("jar", runtimeJar, true));
        p.putAll(file("jvm", jvmHome.resolve(JVM_LIBRARY), false));
        return p;
    }

    private static Map<String, String> file(String key, Path path, boolean withChangeTime) throws IOException {
        Path real = path.toRealPath();
        Map<String, Object> a = Files.readAttributes(real, "unix:size,lastModifiedTime,ctime,ino");
        Map<String, String> out = new TreeMap<>();
        out.put(key, real.toString());
        out.put(key + ".size", String.valueOf(a.get("size")));
        out.put(key + ".mtime", String.valueOf(a.get("lastModifiedTime")));
        if (withChangeTime) {
            out.put(key + ".ctime", String.valueOf(a.get("ctime")));
        }
        out.put(key + ".inode", String.valueOf(a.get("ino")));
        return out;
    }

    /** {@code AotCache stamp RUNTIME_JAR JAVA}: scripts/aot-cache.sh, once it made the cache beside the jar. */
    public static void main(String[] args) throws IOException {
        if (args.length != 3 || !args[0].equals("stamp")) {
            System.err.println("usage: AotCache stamp RUNTIME_JAR JAVA");
            System.exit(2);
        }
        stamp(Path.of(args[1]), Path.of(args[2]));
    }
}

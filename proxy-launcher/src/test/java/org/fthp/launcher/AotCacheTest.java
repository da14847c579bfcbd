package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotCacheTest {

    @TempDir
    Path dir;
    private Path jar;
    private Path cache;
    /** This test's own JVM stands for the ranks' (the stamp names its JVM library). */
    private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

    @BeforeEach
    void madeCache() throws IOException {
        jar = Files.writeString(dir.resolve("fthp-mpi.jar"), "runtime classes, first build");
        cache = Files.writeString(dir.resolve(AotCache.CACHE), "cache");
        AotCache.stamp(jar, java);
    }

    @Test
    void theCacheMadeFromTheseFilesIsUsed() {
        assertEquals(Optional.of(cache.toAbsolutePath()), AotCache.find(jar, java, Map.of()));
    }

    @Test
    void aRebuiltJarMakesTheCacheStaleEvenWithItsOldSizeAndTime() throws IOException {
        FileTime built = Files.getLastModifiedTime(jar);
        Path rebuilt = Files.writeString(dir.resolve("new.jar"), "runtime classes, other build");
        Files.setLastModifiedTime(rebuilt, built);
        Files.move(rebuilt, jar, StandardCopyOption.REPLACE_EXISTING);
        assertEquals(Files.size(jar), "runtime classes, first build".length(), "same size");
        assertEquals(built, Files.getLastModifiedTime(jar), "same modification time");
        assertEquals(Optional.empty(), AotCache.find(jar, java, Map.of()));
    }

    @Test
    void aJarWrittenInPlaceMakesTheCacheStale() throws IOException {
        FileTime built = Files.getLastModifiedTime(jar);
        Files.writeString(jar, "runtime classes, other build");
        Files.setLastModifiedTime(jar, built);
        assertEquals(Optional.empty(), AotCache.find(jar, java, Map.of()));
    }

    @Test
    void noCacheWithoutItsStampOrWhenSwitchedOff() throws IOException {
        assertEquals(Optional.empty(), AotCache.find(jar, java, Map.of(AotCache.SWITCH_ENV, "off")));
        Files.delete(dir.resolve(AotCache.STAMP));
        assertEquals(Optional.empty(), AotCache.find(jar, java, Map.of()));
    }

    @Test
    void aCacheForAnotherJvmIsNotUsed() throws IOException {
        Path stamp = dir.resolve(AotCache.STAMP);
        String facts = Files.readString(stamp);
        assertTrue(facts.contains("jvm="), facts);
        Files.writeString(stamp, facts.replaceAll("jvm\\.size=\\d+", "jvm.size=1"));
        assertEquals(Optional.empty(), AotCache.find(jar, java, Map.of()));
    }

    @Test
    void aHardLinkToTheJvmLibraryKeepsTheCache() throws IOException {
        Path jdk = Files.createDirectories(dir.resolve("jdk"));
        Path fakeJava = Files.writeString(Files.createDirectories(jdk.resolve("bin")).resolve("java"), "java");
        Path library = Files.writeString(Files.createDirectories(jdk.resolve("lib/server")).resolve("libjvm.so"),
                "jvm");
        AotCache.stamp(jar, fakeJava);
        Files.createLink(dir.resolve("build-id-link"), library);
        assertEquals(2, Files.getAttribute(library, "unix:nlink"), "linked, so its change time moved");
        assertEquals(Optional.of(cache.toAbsolutePath()), AotCache.find(jar, fakeJava, Map.of()));
        Files.writeString(library, "another jvm");
        assertEquals(Optional.empty(), AotCache.find(jar, fakeJava, Map.of()));
    }

    @Test
    void aStampNeedsTheCacheBesideTheJar() throws IOException {
        Files.delete(cache);
        assertThrows(IOException.class, () -> AotCache.stamp(jar, java));
    }
}

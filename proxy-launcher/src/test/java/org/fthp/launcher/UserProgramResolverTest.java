package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserProgramResolverTest {

    @TempDir
    Path dir;

    private static UserProgram resolve(Optional<String> classpathEnv, String... args) throws LaunchException {
        return new UserProgramResolver(classpathEnv).resolve(new LaunchOptionsParser().parse(List.of(args)));
    }

    private Path jar(String name, String mainClass) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar)) {
            new JarOutputStream(out, manifest).close(); // a manifest is all we need
        }
        return jar;
    }

    @Test
    void jarSuppliesMainClassAndClassPath() throws Exception {
        Path app = jar("app.jar", "org.example.App");
        UserProgram program = resolve(Optional.empty(), "-np", "1", "--", "-jar", app.toString());
        assertEquals(new UserProgram("org.example.App", app.toString()), program);
    }

    @Test
    void jarWithoutMainClassIsAUsageError() throws Exception {
        Path app = jar("lib.jar", null);
        LaunchException e = assertThrows(LaunchException.class,
                () -> resolve(Optional.empty(), "-np", "1", "--", "-jar", app.toString()));
        assertEquals(LaunchException.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("Main-Class"));
    }

    @Test
    void unreadableJarIsAUsageError() {
        LaunchException e = assertThrows(LaunchException.class,
                () -> resolve(Optional.empty(), "-np", "1", "--", "-jar", dir.resolve("missing.jar").toString()));
        assertEquals(LaunchException.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("cannot read"));
    }

    @Test
    void classPathEnvironmentIsTheFallbackAsWithJava() throws LaunchException {
        assertEquals("env.jar", resolve(Optional.of("env.jar"), "-np", "1", "--", "Main").classpath());
        assertEquals("cli.jar", resolve(Optional.of("env.jar"), "-np", "1", "--", "-cp", "cli.jar", "Main").classpath());
        assertEquals(".", resolve(Optional.of(""), "-np", "1", "--", "Main").classpath());
    }
}

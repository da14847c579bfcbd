package org.fthp.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Turns the parsed java part of the command line into a main class and a class path.
 *
 * <p>We replace the user's class path option with our own, so we must reproduce what java would
 * have used: with -jar, the jar alone (its manifest Class-Path entries are still honoured, since
 * the application class loader follows them for jars on the class path); otherwise the last -cp,
 * else {@code $CLASSPATH}, else the current directory.
 */
public final class UserProgramResolver {

    private final Optional<String> classpathEnvironment;

    /** @param classpathEnvironment the value of {@code CLASSPATH}, if set */
    public UserProgramResolver(Optional<String> classpathEnvironment) {
        this.classpathEnvironment = classpathEnvironment.filter(s -> !s.isEmpty());
    }

    public UserProgram resolve(LaunchOptions options) throws LaunchException {
        if (options.appJar().isPresent()) {
            Path jar = options.appJar().get();
            return new UserProgram(mainClassOf(jar), jar.toString());
        }
        String mainClass = options.mainClass().orElseThrow(
                () -> LaunchException.usage("no main class given"));
        String classpath = options.userClasspath().or(() -> classpathEnvironment).orElse(".");
        return new UserProgram(mainClass, classpath);
    }

    static String mainClassOf(Path jar) throws LaunchException {
        if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
            throw LaunchException.usage("cannot read jar file " + jar);
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String mainClass = manifest == null ? null
                    : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (mainClass == null || mainClass.isBlank()) {
                throw LaunchException.usage("no Main-Class in the manifest of " + jar
                        + "; use -cp " + jar + " MainClass instead of -jar");
            }
            return mainClass.trim();
        } catch (IOException e) {
            throw LaunchException.usage("cannot read jar file " + jar + ": " + e.getMessage());
        }
    }
}

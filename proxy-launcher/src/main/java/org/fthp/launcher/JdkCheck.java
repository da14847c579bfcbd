package org.fthp.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks the java binary the ranks run and makes sure it is 22 or newer (the FFM API is final
 * since 22; older JVMs cannot load the EMPI binding).
 *
 * <p>{@code FTHP_JAVA} (exported by bin/fthp-run) wins; otherwise the JVM running this launcher.
 */
public final class JdkCheck {

    public static final int MINIMUM_FEATURE_VERSION = 22;

    private static final Pattern VERSION = Pattern.compile("version \"(\\d+)(?:\\.(\\d+))?");

    private JdkCheck() {}

    public static Path rankJava(Map<String, String> env) throws LaunchException {
        Path current = Path.of(System.getProperty("java.home"), "bin", "java");
        String explicit = env.get("FTHP_JAVA");
        if (explicit == null || explicit.isBlank()) {
            requireSupported(Runtime.version().feature(), current.toString());
            return current;
        }
        Path java = Path.of(explicit);
        if (!Files.isRegularFile(java) || !Files.isExecutable(java)) {
            throw LaunchException.environment("FTHP_JAVA names " + java + ", which is not an executable file");
        }
        if (!sameFile(java, current)) {
            requireSupported(probeFeatureVersion(java), java.toString());
        }
        return java;
    }

    /** Feature (major) version from {@code java -version} output; -1 when unrecognised. */
    static int parseFeatureVersion(String versionOutput) {
        Matcher m = VERSION.matcher(versionOutput);
        if (!m.find()) {
            return -1;
        }
        int first = Integer.parseInt(m.group(1));
        // Up to Java 8 versions read "1.8.0_x": the feature version is the second number.
        return first == 1 && m.group(2) != null ? Integer.parseInt(m.group(2)) : first;
    }

    static void requireSupported(int featureVersion, String java) throws LaunchException {
        if (featureVersion < MINIMUM_FEATURE_VERSION) {
            throw LaunchException.environment("no JDK " + MINIMUM_FEATURE_VERSION + "+ found: " + java
                    + " is version " + (featureVersion < 0 ? "unknown" : featureVersion)
                    + "; set FTHP_JAVA_HOME to a JDK 22 or newer");
        }
    }

    private static int probeFeatureVersion(Path java) throws LaunchException {
        try {
            Process p = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return parseFeatureVersion(out);
        } catch (IOException e) {
            throw LaunchException.environment("cannot run " + java + " -version: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LaunchException.environment("interrupted while checking " + java);
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }
}

package org.fthp.empi.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The JNI fast path against the real native library: {@link JniCallsSelfCheck} in a JVM of its own (a singleton MPI
 * process; MPI initializes once per process, and this test JVM's belongs to EmpiSingletonTest) builds the library
 * with the installed MPI's wrapper, sends headed byte[] and int[] messages to itself and checks the header, the
 * copied items and a truncation.
 */
class JniCallsTest {

    @Test
    void headedMessagesToSelf() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), JniCallsSelfCheck.class.getName()))
                .redirectErrorStream(true).start();
        try {
            boolean ended = p.waitFor(120, TimeUnit.SECONDS);
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(ended, "the self-check did not end within 120 s:\n" + output);
            assertEquals(0, p.exitValue(), output);
            assertTrue(output.contains("JniCallsSelfCheck OK"), output);
        } finally {
            p.destroyForcibly();
        }
    }
}

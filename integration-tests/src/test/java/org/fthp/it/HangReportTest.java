package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A stuck job's report names each process, its threads' kernel waits and a JVM's Java stacks: a shell (the
 * launcher's stand-in) whose child JVM sleeps in a named method.
 */
class HangReportTest {

    /** The stuck program: its main thread waits in {@link #stuckHere}. */
    public static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            stuckHere();
        }

        static void stuckHere() throws InterruptedException {
            System.out.println("asleep");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }

    @Test
    void namesEveryProcessAndTheJvmsStack() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classes = Path.of(Sleeper.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process shell = new ProcessBuilder("bash", "-c",
                "'" + java + "' -XX:-UsePerfData -cp '" + classes + "' '" + Sleeper.class.getName() + "'; exit 0")
                .redirectErrorStream(true).start();
        try {
            // the report is taken once the JVM sleeps where the test says
            String first = new String(shell.getInputStream().readNBytes(6));
            assertTrue(first.startsWith("asleep"), first);
            String report = HangReport.of(shell.toHandle());
            assertTrue(report.contains("pid " + shell.pid() + " "), report);
            assertTrue(report.contains("Sleeper"), report);
            assertTrue(report.contains("\"main\""), report);
            assertTrue(report.contains("Sleeper.stuckHere"), report);
            assertTrue(report.contains(" bash "), report);
            // the JVM's own threads are left out
            assertFalse(report.contains("Reference Handler"), report);
        } finally {
            MpiJob.killTree(shell.toHandle());
            shell.waitFor(10, TimeUnit.SECONDS);
        }
    }
}

package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.it.programs.DeathBehindHeldSocket;
import org.fthp.it.programs.DieBeforeInit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deaths that only mpirun's proxy library sees reach the coordinators through their report pipes
 * (fthp-run --nodes 2: two coordinator processes, both told of every death).
 */
class ProxyReportJobTest {
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aRankThatDiesBeforeRegisteringEndsTheJobQuickly() throws Exception {
        Path events = dir.resolve("events.jsonl");
        long start = System.nanoTime();
        MpiJob.Result r = MpiJob.runWith(List.of("--nodes", "2", "--events", events.toString()), 4, JOB_TIMEOUT,
                DieBeforeInit.class);
        double seconds = (System.nanoTime() - start) / 1e9;
        String pid = find(r.stdout(), "rank 1 pid (\\d+) dies before MPI.Init").orElseThrow(
                () -> new AssertionError("rank 1 did not say its pid:\n" + r.stdout() + r.stderr()));
        assertEquals(4, r.exitCode(), "the coordinators end the job:\n" + r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stderr().contains("a process (pid " + pid + ") died before it registered with the coordinators"),
                r.stderr());
        assertTrue(seconds < 40, "ended by the coordinators, not a timeout: " + seconds + " s");
        assertTrue(!r.stdout().contains("NOT REACHED"), r.stdout());
        List<String> lines = Files.readAllLines(events);
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"event\":\"job-aborted\"")
                && l.contains("(pid " + pid + ") died before it registered")), "the abort is logged: " + lines);
    }

    @Test
    @Timeout(120)
    void aDeathWhoseConnectionStaysOpenIsDetectedByTheProxyReport() throws Exception {
        Path events = dir.resolve("events.jsonl");
        MpiJob.Result r = null;
        try {
            r = MpiJob.runWith(List.of("--nodes", "2", "--events", events.toString()), 4, JOB_TIMEOUT,
                    DeathBehindHeldSocket.class);
            assertEquals(4, r.exitCode(), "the coordinators end the job:\n" + r.stdout() + r.stderr());
            assertTrue(r.stderr().contains("rank=1"), r.stderr());
            List<String> lines = Files.readAllLines(events);
            assertTrue(lines.stream().anyMatch(l -> l.contains("\"event\":\"failure-detected\"")
                    && l.contains("\"nativeRank\":1") && l.contains("\"epoch\":1")
                    && l.contains("\"cause\":\"proxy-report\"")), "rank 1's death came from the proxy: " + lines);
        } finally {
            if (r != null) {
                find(r.stdout(), "holder pid (\\d+)").ifPresent(ProxyReportJobTest::endHolder);
            }
        }
    }

    /** The sleep that held rank 1's descriptors, by its pid, checking it still is that sleep. */
    private static void endHolder(String pid) {
        ProcessHandle.of(Long.parseLong(pid))
                .filter(h -> h.info().command().map(c -> c.endsWith("sleep")).orElse(false))
                .ifPresent(ProcessHandle::destroyForcibly);
    }

    private static Optional<String> find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}

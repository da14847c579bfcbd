package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.it.programs.RestartIterations;
import org.junit.jupiter.api.Test;

/**
 * Spares ({@code fthp-run --spares S}): extra native processes after the program's that complete MPI_Init with
 * everyone, wait on their coordinator without CPU, and finalize with the job when nobody needed them. The program
 * sees nothing of them: same output as a run without spares.
 */
class SparesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final String[] WORKLOAD = {"30", "20"};
    private static final Pattern SPARES_LINE = Pattern.compile(
            "(\\d+) spares, (\\d+) used; an idle spare used at most ([0-9.]+) s of CPU over its ([0-9.]+) s wait");
    /**
     * CPU an idle spare may use over a short job's wait: its coordinator connection's thread wakes for a handful of
     * messages, nothing polls. Far above what it uses (milliseconds), far below one poll loop's share of a core.
     */
    private static final double IDLE_CPU_BOUND_SECONDS = 0.2;

    @Test
    void idleSparesChangeNothingTheProgramSeesAndUseNoCpu() {
        List<String> expected = FailureFreeRuns.sortedLines(RestartIterations.class, 2, TIMEOUT, WORKLOAD);
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "1", "--spares", "2"), Map.of(), 2, TIMEOUT,
                RestartIterations.class, WORKLOAD).assertSuccess();
        assertEquals(expected, FailureFreeRuns.sorted(r), "stdout differs from the run without spares\n"
                + r.stderr());
        Matcher m = SPARES_LINE.matcher(r.stderr());
        assertTrue(m.find(), "the summary names the spares:\n" + r.stderr());
        assertEquals("2", m.group(1), r.stderr());
        assertEquals("0", m.group(2), r.stderr());
        assertTrue(Double.parseDouble(m.group(3)) <= IDLE_CPU_BOUND_SECONDS, "an idle spare used CPU:\n"
                + r.stderr());
    }

    @Test
    void aBadSpareCountIsAUsageError() {
        for (String bad : List.of("-1", "two", "1.5")) {
            MpiJob.Result r = MpiJob.runWith(List.of("--spares", bad), Map.of(), 2, TIMEOUT,
                    RestartIterations.class, WORKLOAD);
            assertEquals(2, r.exitCode(), r.stderr());
            assertTrue(r.stderr().startsWith("fthp-run: --spares must be a whole number of 0 or more, not \"" + bad
                    + "\""), r.stderr());
        }
    }
}

package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.fthp.it.programs.BadInputErrors;
import org.fthp.it.programs.BadInputFatal;
import org.fthp.it.programs.BadInputLifecycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input: error classes with ERRORS_RETURN, lifecycle misuse, and aborts with ERRORS_ARE_FATAL. */
class BadInputTest {

    /** Cases BadInputErrors reports (rank 0's view); each must print "OK &lt;case&gt;". */
    static final List<String> CASES = List.of(
            "send to rank size", "send to rank -5", "recv from rank size", "irecv from rank size",
            "send with tag -1", "recv with tag -100",
            "send with count -1", "send count larger than array", "send int[] as MPI.DOUBLE past the array's bytes",
            "send null buffer with count 3", "iSend of a non-direct buffer",
            "send with an uncommitted datatype", "send with a freed datatype",
            "bcast with root size", "truncation (sender side)",
            "allReduce whose operation throws, 1 ints", "allReduce whose operation throws, 5000 ints",
            "send on a freed communicator", "Win one-sided operation", "File I/O operation");

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void errorsReturnGivesMatchingErrorClasses(int np) {
        MpiJob.Result r = MpiJob.run(np, BadInputErrors.class).assertSuccess();
        List<String> lines = r.lines();
        for (String c : CASES) {
            assertTrue(lines.contains("OK " + c), "missing 'OK " + c + "' in\n" + r.stdout());
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("OK send with tag TAG_UB+1")), r.stdout());
        for (int rank = 0; rank < np; rank++) {
            assertTrue(lines.contains("BadInputErrors OK rank " + rank), r.stdout() + "\n" + r.stderr());
        }
    }

    @Test
    void callsBeforeInitAndAfterFinalizeThrow() {
        MpiJob.Result r = MpiJob.run(2, BadInputLifecycle.class).assertSuccess();
        List<String> lines = r.lines();
        for (String c : List.of("before-init COMM_WORLD.getRank", "before-init COMM_WORLD.send",
                "initialized Init twice", "after-finalize COMM_WORLD.getRank", "after-finalize Finalize twice")) {
            assertEquals(2, lines.stream().filter(l -> l.equals("OK " + c)).count(), "'OK " + c + "' on both ranks\n" + r.stdout());
        }
        assertTrue(lines.contains("BadInputLifecycle OK rank 0"), r.stdout());
        assertTrue(lines.contains("BadInputLifecycle OK rank 1"), r.stdout());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"send", "recv"})
    void invalidRankWithDefaultErrhandlerAbortsTheJob(String variant) {
        long start = System.nanoTime();
        MpiJob.Result r = MpiJob.run(4, Duration.ofSeconds(60), BadInputFatal.class, variant);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        String all = "\n--- stdout ---\n" + r.stdout() + "\n--- stderr ---\n" + r.stderr();
        assertNotEquals(0, r.exitCode(), "the job must fail" + all);
        r.assertNoLeftovers();
        assertTrue(took.compareTo(Duration.ofSeconds(30)) < 0, "abort took " + took + all);
        assertEquals(4, r.lines().stream().filter(l -> l.startsWith("STARTED rank ")).count(), "all ranks started" + all);
        assertFalse(r.stdout().contains("NOT ABORTED"), "code after the fatal error ran" + all);
        assertFalse(r.stdout().contains("FINALIZED"), "a rank finalized" + all);
        String err = r.stderr().toLowerCase();
        assertTrue(err.contains("rank") && (err.contains("invalid rank") || err.contains("mpi_err_rank")
                || err.contains("error class " + 6)), "stderr should name the invalid-rank error" + all);
    }
}

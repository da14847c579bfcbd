package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.fthp.it.programs.ProgramEnds;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A program that ends a job without MPI_Finalize: the job ends promptly with the program's code, says
 * why once per rank (not once per copy), leaves nothing running, and no death is taken for a failure to repair.
 * Each way once, spread over unreplicated and replicated jobs with and without {@code --nodes};
 * {@code scripts/program-ends.sh} runs every way in every configuration. The jobs are independent and spend most of
 * their time waiting for the end to be seen and the processes to go, so they run side by side.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProgramEndTest {

    /** Generous: the program ends seconds after start-up; a hang would take the whole job timeout. */
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final List<String> REPLICATED = List.of("--replicas", "2");
    private static final List<String> REPLICATED_NODES = List.of("--replicas", "2", "--nodes", "2");
    private static final List<String> UNREPLICATED = List.of();
    private static final List<String> UNREPLICATED_NODES = List.of("--nodes", "2");
    /** Open MPI's MPI_ERR_RANK: ERRORS_ARE_FATAL ends the job with the error's class. */
    private static final int ERR_RANK = 6;

    @TempDir
    Path dir;

    static Stream<Arguments> ways() {
        String uncaught = "Exception in thread \"main\" java.lang.";
        return Stream.of(
                Arguments.of(REPLICATED, List.of("throw", "1"), 1,
                        List.of(uncaught + "IllegalStateException: ProgramEnds fails on rank 1")),
                Arguments.of(REPLICATED_NODES, List.of("throw", "all"), 1, List.of()),
                // a program's own end is never restarted: it would end the same way
                Arguments.of(List.of("--replicas", "2", "--restart", "1"), List.of("throw", "0"), 1,
                        List.of(uncaught + "IllegalStateException: ProgramEnds fails on rank 0")),
                Arguments.of(UNREPLICATED, List.of("exit", "1", "3"), 3,
                        List.of("rank 1 called System.exit(3) before MPI_Finalize")),
                Arguments.of(REPLICATED_NODES, List.of("exit", "1", "3"), 3,
                        List.of("rank 1 called System.exit(3) before MPI_Finalize")),
                Arguments.of(REPLICATED, List.of("exit", "1", "0"), 5,
                        List.of("rank 1 called System.exit(0) before MPI_Finalize")),
                Arguments.of(REPLICATED, List.of("return", "1"), 5,
                        List.of("rank 1 returned from main without calling MPI_Finalize")),
                Arguments.of(UNREPLICATED_NODES, List.of("return", "0"), 5,
                        List.of("rank 0 returned from main without calling MPI_Finalize")),
                Arguments.of(REPLICATED, List.of("abort", "1", "7"), 7, List.of("rank 1 called MPI_Abort(7)")),
                Arguments.of(REPLICATED_NODES, List.of("fatal", "1"), ERR_RANK,
                        List.of("*** An error occurred in an MPI call on rank 1 (error class 6)")),
                Arguments.of(REPLICATED, List.of("oom", "1"), 1, List.of(uncaught + "OutOfMemoryError")),
                Arguments.of(UNREPLICATED_NODES, List.of("stack", "0"), 1, List.of(uncaught + "StackOverflowError")));
    }

    @ParameterizedTest(name = "{1} with {0} exits {2}")
    @MethodSource("ways")
    void theJobEndsPromptlyWithTheProgramsCode(List<String> options, List<String> args, int exitCode,
                                              List<String> printedOnce) throws Exception {
        List<String> launcher = new ArrayList<>(options);
        Path events = dir.resolve("events.jsonl");
        boolean coordinated = !options.isEmpty();
        if (coordinated) {
            launcher.addAll(List.of("--events", events.toString()));
        }
        long start = System.nanoTime();
        MpiJob.Result r = MpiJob.runWith(launcher, 2, BOUND, ProgramEnds.class, args.toArray(String[]::new));
        double seconds = (System.nanoTime() - start) / 1e9;
        r.assertNoLeftovers();
        String all = r.stdout() + r.stderr();
        String context = "\n--- stdout ---\n" + r.stdout() + "\n--- stderr ---\n" + r.stderr();
        assertEquals(exitCode, r.exitCode(), "exit code" + context);
        assertTrue(seconds < BOUND.toSeconds(), "ended in " + seconds + " s");
        assertFalse(all.contains("NOT REACHED"), "nothing runs after the end" + context);
        assertFalse(r.stderr().contains("fthp-run: restart"), "not restarted" + context);
        for (String line : printedOnce) {
            assertEquals(1, occurrences(all, line), "printed once: " + line + context);
        }
        if (args.get(1).equals("all")) {
            int printed = 0;
            for (int rank = 0; rank < 2; rank++) {
                int n = occurrences(all, "IllegalStateException: ProgramEnds fails on rank " + rank + "\n");
                assertTrue(n <= 1, "rank " + rank + "'s trace at most once" + context);
                printed += n;
            }
            assertTrue(printed >= 1, "the trace of the rank that ended the job" + context);
        }
        if (coordinated) {
            List<String> lines = Files.readAllLines(events);
            assertTrue(lines.stream().noneMatch(l -> l.contains("failure-detected")),
                    "no death was taken for a failure: " + lines);
            assertTrue(lines.stream().anyMatch(l -> l.contains("\"event\":\"program-ended\"")
                    && l.contains("\"exitCode\":" + exitCode)), "the program's end is logged: " + lines);
        }
    }

    private static int occurrences(String text, String line) {
        int n = 0;
        for (int at = text.indexOf(line); at >= 0; at = text.indexOf(line, at + line.length())) {
            n++;
        }
        return n;
    }
}

package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.fthp.it.programs.CollBlocking;
import org.fthp.it.programs.CollInter;
import org.fthp.it.programs.CollNeighborWildcard;
import org.fthp.it.programs.CollNonblocking;
import org.fthp.it.programs.CommsGroupsTopo;
import org.fthp.it.programs.CommsProcNull;
import org.fthp.it.programs.MatchedProbeRepair;
import org.fthp.it.programs.P2pBasics;
import org.fthp.it.programs.P2pLarge;
import org.fthp.it.programs.P2pNonblocking;
import org.fthp.it.programs.P2pProbe;
import org.fthp.it.programs.RequestsThroughRepair;
import org.fthp.it.programs.TruncationThroughRepair;
import org.fthp.it.programs.TypesAndOps;
import org.fthp.it.programs.TypesSlice;
import org.fthp.it.programs.TypesStructExtent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The integration suite's programs, fully replicated (N = M = 4), with
 * processes killed at seeded random points: every point-to-point, collective,
 * communicator and datatype path they take must survive a failure and print
 * what the failure-free unreplicated run prints.
 *
 * <p>These programs finish in a fraction of a second, too fast for a kill at
 * a time to land reliably inside them, so each kill is at a call: the copy
 * SIGKILLs itself as it enters its K-th MPI call ({@code --kill R:cmp#K}),
 * from the first call to the last (MPI_Finalize).
 */
class SuiteUnderKillsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(150);

    /**
     * MPI calls every process of the program makes at N = M = 4, at least:
     * measured with {@code -x FTHP_REPORT_CALLS=1}; lower than measured for
     * the programs whose test loops make the count vary from run to run.
     * A kill beyond a process's last call would never happen, and the test
     * fails saying so.
     */
    private record Target(Class<?> program, int calls) {}

    private static final List<Target> TARGETS = List.of(
            new Target(P2pBasics.class, 380), new Target(P2pNonblocking.class, 120),
            new Target(P2pProbe.class, 29), new Target(P2pLarge.class, 18),
            new Target(CollBlocking.class, 117), new Target(CollNonblocking.class, 40),
            new Target(CollInter.class, 23), new Target(CollNeighborWildcard.class, 10),
            new Target(CommsGroupsTopo.class, 61), new Target(CommsProcNull.class, 6),
            new Target(TypesAndOps.class, 55), new Target(TypesSlice.class, 9),
            new Target(TypesStructExtent.class, 3),
            // asserts what waitAny/testSome results, isNull and persistent restarts promise on every use
            new Target(RequestsThroughRepair.class, 800));

    private static final int FEWEST_CALLS_IN_CI = 10;

    @TempDir
    Path dir;

    /**
     * One kill per program, two (distinct ranks) for programs of 50 calls or more. Programs of fewer than
     * {@link #FEWEST_CALLS_IN_CI} calls run in the whole matrix only ({@link KillMatrix}): a kill there lands in
     * the first calls every other program makes too.
     */
    static Stream<Arguments> kills() {
        return IntStream.range(0, TARGETS.size())
                .filter(i -> KillMatrix.full() || TARGETS.get(i).calls() >= FEWEST_CALLS_IN_CI).mapToObj(i -> {
            Target t = TARGETS.get(i);
            Random r = new Random(1000 + i);
            List<Integer> ranks = new ArrayList<>(List.of(0, 1, 2, 3));
            java.util.Collections.shuffle(ranks, r);
            List<String> kills = new ArrayList<>();
            for (int k = 0; k < (t.calls() >= 50 ? 2 : 1); k++) {
                kills.add(ranks.get(k) + (r.nextBoolean() ? ":cmp" : ":rep") + "#" + (1 + r.nextInt(t.calls())));
            }
            return Arguments.of(t.program().getSimpleName(), t.program(), kills);
        });
    }

    @ParameterizedTest(name = "{0} kills {2}")
    @MethodSource("kills")
    void survivesKillsWithTheFailureFreeOutput(String name, Class<?> program, List<String> kills) throws Exception {
        List<String> expected = FailureFreeRuns.sortedLines(program, 4, TIMEOUT);
        Path events = dir.resolve("events.jsonl");
        List<String> options = new ArrayList<>(List.of("--replicas", "4", "--events", events.toString()));
        for (String k : kills) {
            options.add("--kill");
            options.add(k);
        }
        MpiJob.Result r = MpiJob.runWith(options, 4, TIMEOUT, program).assertSuccess();
        assertEquals(expected, FailureFreeRuns.sorted(r), "stdout after kills " + kills
                + " differs from the failure-free run\n--- stderr ---\n" + r.stderr());
        long killed = r.stderr().lines().filter(l -> l.contains("kills itself at MPI call")).count();
        assertEquals(kills.size(), killed, "every kill happened (a program making fewer calls now needs a lower "
                + "count in TARGETS):\n" + r.stderr());
        List<String> log = Files.readAllLines(events);
        long detected = log.stream().filter(l -> l.contains("\"event\":\"failure-detected\"")).count();
        assertEquals(kills.size(), detected, "every kill detected: " + log);
        assertTrue(r.stderr().contains("summary: 4 logical ranks, 4 replicas"), r.stderr());
    }

    /**
     * A message a probe returned stays there through a repair. P2pLarge's
     * receiver probes a large message and an empty one (both header-only: the
     * probe reads them off the native library), then iProbes the large one
     * again. Its computational copy dies entering that iProbe (call 5), while
     * the replica waits there for its twin's decision with both messages read:
     * promoted, it must still see the large one, and receive it before the
     * empty one: the rebuilt communicator keeps the messages its probes read,
     * which would otherwise be gone until their senders' copies came again.
     * The payloads are pulled from their senders' memory (logged, so a copy
     * the repair left without one gets it again natively from the log).
     */
    @Test
    void aProbedMessageStaysThroughARepair() {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--kill", "1:cmp#5"), 2, TIMEOUT, P2pLarge.class)
                .assertSuccess();
        assertTrue(r.stdout().contains("P2pLarge OK np=2"), r.stdout() + "\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stderr().contains("native rank 1 kills itself at MPI call 5"), r.stderr());
        assertTrue(r.stderr().contains("1 promotion, 1 repair"), r.stderr());
        java.util.regex.Matcher m = P2pTest.OFFERED.matcher(r.stderr());
        assertTrue(m.find() && Long.parseLong(m.group(1)) > 0, "payloads pulled through the repair:\n" + r.stderr());
    }

    /**
     * A repair between a matched probe and its receive: MatchedProbeRepair's rank 1 mProbes a message, then the
     * witness it told dies entering the barrier rank 1 waits in, so rank 1's mRecv comes after the repair; the
     * sender sent the message again on the new communicators, and mRecv must receive that copy. What goes wrong
     * otherwise: the small message's receive takes the probed copy and leaves the copy sent again for the next
     * ANY_TAG receive (a truncation there); the large one pairs its old header with the new copy's payload (a
     * native truncation when the header announced a pulled payload). Once with the large payload
     * offered for pulling (its copy sent again after the repair goes natively, so nothing is counted as pulled),
     * once with every payload through the native library.
     */
    @ParameterizedTest
    @ValueSource(strings = {"4000", "0"})
    void aMatchedProbesMessageIsReceivedOnceAfterARepair(String pullBytes) {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "4", "--kill", "3:cmp#2", "--kill", "2:cmp#4"),
                java.util.Map.of("FTHP_PULL_BYTES", pullBytes), 4, TIMEOUT, MatchedProbeRepair.class).assertSuccess();
        assertTrue(r.stdout().contains("MatchedProbeRepair round 16 OK"), r.stdout() + "\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stdout().contains("MatchedProbeRepair round 300000 OK"), r.stdout());
        assertTrue(r.stderr().contains("2 promotions, 2 repairs"), r.stderr());
    }

    /**
     * The program's own error in an operation the repair completes: rank 1's replica has a receive in flight
     * that will truncate, and its repair (rank 2's computational copy died) progresses every operation in flight
     * before it gives up the twin channel. The truncation must reach the program's wait as ERR_TRUNCATE, and the
     * job go on: the operation keeps its error, so the repair never takes it for its own (which would stop the
     * replica with "repair after a failure failed ... MPI_ERR_TRUNCATE").
     */
    @Test
    void aTruncationTheRepairCompletesIsTheProgramsError() {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "3", "--kill", "2:cmp#2"), 3, TIMEOUT,
                TruncationThroughRepair.class).assertSuccess();
        assertTrue(r.stdout().contains("the truncation was reported to the program"), r.stdout()
                + "\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stdout().contains("TruncationThroughRepair OK"), r.stdout());
        assertTrue(r.stderr().contains("native rank 2 kills itself at MPI call 2"), r.stderr());
        assertTrue(r.stderr().contains("1 promotion, 1 repair"), r.stderr());
    }
}

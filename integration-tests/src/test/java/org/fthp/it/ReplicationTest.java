package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.fthp.it.programs.CollAllreduceOrder;
import org.fthp.it.programs.CollBlocking;
import org.fthp.it.programs.CollInter;
import org.fthp.it.programs.CollNeighborWildcard;
import org.fthp.it.programs.CollNonblocking;
import org.fthp.it.programs.CommsGroupsTopo;
import org.fthp.it.programs.CommsProcNull;
import org.fthp.it.programs.P2pBasics;
import org.fthp.it.programs.P2pLarge;
import org.fthp.it.programs.P2pNonblocking;
import org.fthp.it.programs.P2pProbe;
import org.fthp.it.programs.ReplicaDeterminism;
import org.fthp.it.programs.TypesAndOps;
import org.fthp.it.programs.TypesSlice;
import org.fthp.it.programs.TypesStructExtent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replicated runs (fthp-run --replicas M) against unreplicated ones: the
 * program must see and print exactly what it does without replicas, at M = 1
 * (ranks with and without a replica side by side: every route, including the
 * computational copy feeding a replica whose source has none); and every
 * replica must walk its twin's path, which the determinism program makes
 * visible by printing a trace of every timing-dependent outcome on every copy.
 * M = N at N = 4 runs in SuiteUnderKillsTest (the same programs, fully
 * replicated, with processes killed, against the same unreplicated output)
 * and here at N = 3; every program at N = 2, 4, 8 and M = 1, N/2, N is
 * scripts/replication-matrix.sh, too slow for CI on two cores.
 */
class ReplicationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(150);

    static Stream<Arguments> suite() {
        Class<?>[] atFour = {P2pBasics.class, P2pNonblocking.class, P2pProbe.class, P2pLarge.class,
                CollBlocking.class, CollNonblocking.class, CollInter.class, CollNeighborWildcard.class,
                CommsGroupsTopo.class, CommsProcNull.class, TypesAndOps.class, TypesSlice.class,
                TypesStructExtent.class};
        Stream<Arguments> four = Stream.of(atFour).map(p -> Arguments.of(p, 4, 1));
        // an odd size: recursive doubling folds a pair, and half the ranks is not a whole number
        Stream<Arguments> three = Stream.of(1, 3).map(m -> Arguments.of(CollAllreduceOrder.class, 3, m));
        return Stream.concat(four, three);
    }

    @ParameterizedTest(name = "{0} np={1} M={2}")
    @MethodSource("suite")
    void programSeesWhatItSeesUnreplicated(Class<?> program, int np, int replicas) {
        List<String> expected = FailureFreeRuns.sortedLines(program, np, TIMEOUT);
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", Integer.toString(replicas)), np, TIMEOUT, program)
                .assertSuccess();
        assertEquals(expected, FailureFreeRuns.sorted(r), "stdout with " + replicas + " replicas differs from the unreplicated run"
                + "\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stderr().contains("summary: " + np + " logical ranks, " + replicas + " replicas"),
                "no run summary on stderr:\n" + r.stderr());
        SdcTest.assertTwinsAgreed(r, replicas, np);
    }

    /**
     * Large logged messages are pulled too: the sender packs each into its pull memory once (the log entry),
     * and every copy of the destination, computational or replica, copies the payload from there itself. With
     * every rank replicated each payload the unreplicated run pulls is pulled twice, and on one host none is
     * pushed.
     */
    @Test
    void everyCopyOfTheDestinationPullsALargePayload() {
        MpiJob.Result plain = MpiJob.runOk(2, P2pLarge.class);
        Matcher once = P2pTest.OFFERED.matcher(plain.stderr());
        assertTrue(once.find(), "no count of pulled payloads in the summary:\n" + plain.stderr());
        long pulledOnce = Long.parseLong(once.group(1));
        assertTrue(pulledOnce > 0, once.group());

        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2"), 2, TIMEOUT, P2pLarge.class).assertSuccess();
        assertTrue(r.stdout().contains("P2pLarge OK np=2"), r.stdout() + "\n--- stderr ---\n" + r.stderr());
        Matcher m = P2pTest.OFFERED.matcher(r.stderr());
        assertTrue(m.find(), "no count of pulled payloads in the summary:\n" + r.stderr());
        assertEquals(2 * pulledOnce, Long.parseLong(m.group(1)), "each payload pulled by both copies: " + m.group());
        assertEquals(0, Long.parseLong(m.group(2)), "on one host nothing is pushed: " + m.group());
    }

    static Stream<Arguments> determinism() {
        // ranks with and without a replica side by side, every rank replicated, and the largest job; the
        // other pairs ((2,1), (2,2), (4,2)) took CI time without a route these three leave out
        return Stream.of(Arguments.of(4, 1), Arguments.of(4, 4), Arguments.of(8, 4));
    }

    private static final Pattern TRACE = Pattern.compile("^(\\[replica (\\d+)\\] )?trace (\\d+): (.*)$");

    /**
     * Wildcard receives, testSome/waitAny/test/iProbe loops, a wtime-driven
     * loop with a collective in every trip and order-sensitive reductions: a
     * replica that decided anything itself would deadlock or print another
     * trace than its twin.
     */
    @ParameterizedTest(name = "np={0} M={1}")
    @MethodSource("determinism")
    void replicasWalkTheirTwinsPath(int np, int replicas) {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", Integer.toString(replicas), "--show-replica-output"),
                np, TIMEOUT, ReplicaDeterminism.class).assertSuccess();
        assertTrue(r.stdout().contains("ReplicaDeterminism OK np=" + np), r.stdout() + r.stderr());
        SdcTest.assertTwinsAgreed(r, replicas, np);
        Map<Integer, String> cmp = new HashMap<>();
        Map<Integer, String> rep = new HashMap<>();
        for (String line : r.lines()) {
            Matcher m = TRACE.matcher(line);
            if (m.matches()) {
                int rank = Integer.parseInt(m.group(3));
                (m.group(1) == null ? cmp : rep).put(rank, m.group(4));
            }
        }
        assertEquals(np, cmp.size(), "one trace per computational copy:\n" + r.stdout());
        assertEquals(replicas, rep.size(), "one trace per replica:\n" + r.stdout());
        for (Map.Entry<Integer, String> e : rep.entrySet()) {
            assertTrue(e.getKey() < replicas, "replica of rank " + e.getKey() + " with only " + replicas + " replicas");
            assertEquals(cmp.get(e.getKey()), e.getValue(), "replica of rank " + e.getKey() + " took another path");
        }
    }

}

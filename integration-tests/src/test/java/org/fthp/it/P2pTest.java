package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.it.programs.P2pBasics;
import org.fthp.it.programs.P2pNonblocking;
import org.fthp.it.programs.P2pProbe;
import org.fthp.it.programs.P2pShallowPath;
import org.fthp.it.programs.P2pSmallBlocking;
import org.fthp.it.programs.ResilientPingPong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Point-to-point on real MPI jobs: the programs check exact values themselves
 * and print "&lt;Program&gt; OK rank r" on every rank when everything matched.
 */
class P2pTest {

    /** The failure-free run (the reference of the replicated and fault-injected runs) passed on every rank. */
    static void assertAllRanksOk(Class<?> program, int np) {
        assertAllRanksOk(FailureFreeRuns.sortedLines(program, np, MpiJob.DEFAULT_TIMEOUT), program, np);
    }

    static void assertAllRanksOk(MpiJob.Result r, Class<?> program, int np) {
        r.assertSuccess();
        assertAllRanksOk(r.lines(), program, np);
    }

    private static void assertAllRanksOk(List<String> lines, Class<?> program, int np) {
        String name = program.getSimpleName();
        for (int rank = 0; rank < np; rank++) {
            String line = name + " OK rank " + rank;
            assertTrue(lines.contains(line), "missing '" + line + "' in\n" + String.join("\n", lines));
        }
        assertEquals(np, lines.stream().filter(l -> l.startsWith(name + " OK rank ")).count(),
                "one OK line per rank");
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void basics(int np) {
        assertAllRanksOk(P2pBasics.class, np);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void nonblocking(int np) {
        assertAllRanksOk(P2pNonblocking.class, np);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void probe(int np) {
        assertAllRanksOk(P2pProbe.class, np);
    }

    /**
     * Large messages travel as header plus payload: probes, wildcards, several in flight, truncation. Without
     * replicas, and all ranks on one host, every payload above the eager limit is copied from its sender's shared
     * memory (ops.PullSend), as the run's summary counts.
     */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void largeMessages(int np) {
        MpiJob.Result r = MpiJob.runOk(np, org.fthp.it.programs.P2pLarge.class);
        Matcher m = OFFERED.matcher(r.stderr());
        assertTrue(m.find(), "no count of pulled payloads in the summary:\n" + r.stderr());
        assertTrue(Long.parseLong(m.group(1)) > 0, m.group());
        assertEquals(0, Long.parseLong(m.group(2)), "on one host nothing is pushed: " + m.group());
    }

    /** The same program with pulls off: every payload goes through the native library. */
    @Test
    void largeMessagesThroughTheNativeLibraryOnly() {
        MpiJob.Result r = MpiJob.runWith(java.util.List.of(), java.util.Map.of("FTHP_PULL_BYTES", "0"), 2,
                MpiJob.DEFAULT_TIMEOUT, org.fthp.it.programs.P2pLarge.class).assertSuccess();
        assertTrue(r.stdout().contains("P2pLarge OK np=2"), r.stdout() + r.stderr());
        assertFalse(OFFERED.matcher(r.stderr()).find(), r.stderr());
    }

    /**
     * Small blocking sends and receives, done inline in a job without replicas, against every other path and
     * its errors; again with pulls off (a large message meets a small receive as a plain header then).
     */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void smallBlocking(int np) {
        MpiJob.runOk(np, P2pSmallBlocking.class);
    }

    @Test
    void smallBlockingWithoutPulls() {
        MpiJob.Result r = MpiJob.runWith(java.util.List.of(), java.util.Map.of("FTHP_PULL_BYTES", "0"), 2,
                MpiJob.DEFAULT_TIMEOUT, P2pSmallBlocking.class).assertSuccess();
        assertTrue(r.stdout().contains("P2pSmallBlocking OK np=2"), r.stdout() + r.stderr());
    }

    /**
     * The same program and the basics with the JNI calls off (FTHP_FASTPATH=ffm: every native call an FFM downcall,
     * as where the library cannot be built): the same answers, and nothing said about the JNI path.
     */
    @Test
    void smallBlockingThroughTheFfmPath() {
        Map<String, String> ffm = Map.of("FTHP_FASTPATH", "ffm");
        MpiJob.Result r = MpiJob.runWith(List.of(), ffm, 2, MpiJob.DEFAULT_TIMEOUT,
                P2pSmallBlocking.class).assertSuccess();
        assertTrue(r.stdout().contains("P2pSmallBlocking OK np=2"), r.stdout() + r.stderr());
        assertFalse(r.stderr().contains("JNI path"), r.stderr());
        MpiJob.Result basics = MpiJob.runWith(List.of(), ffm, 4, MpiJob.DEFAULT_TIMEOUT,
                P2pBasics.class);
        assertAllRanksOk(basics, P2pBasics.class, 4);
    }

    /**
     * The shallow path (ops.ShallowTransfer) takes an unreplicated job's blocking sends and receives of primitive
     * arrays, and nothing else: not a direct buffer, a boolean[], a strided datatype, a large payload or PROC_NULL;
     * the facade's errors and a truncation are MPIExceptions of their class either way. It takes nothing with the
     * JNI path off, nothing in a replicated job, and no send of a process an injected corruption may hit.
     */
    @Test
    void theShallowPathTakesAnUnreplicatedJobsArraysOnly() {
        MpiJob.Result r = MpiJob.runWith(List.of(), 2, MpiJob.DEFAULT_TIMEOUT, P2pShallowPath.class).assertSuccess();
        assertShallowCalls(r, 40, 40);
        assertFalse(r.stderr().contains("fast path"), r.stderr());
        MpiJob.Result off = MpiJob.runWith(List.of(), Map.of("FTHP_FASTPATH", "ffm"), 2, MpiJob.DEFAULT_TIMEOUT,
                P2pShallowPath.class).assertSuccess();
        assertShallowCalls(off, 0, 0);
        MpiJob.Result injected = MpiJob.runWith(List.of("--checkpoint-interval", "600", "--corrupt", "0:msg#1000000"), 2, MpiJob.DEFAULT_TIMEOUT,
                P2pShallowPath.class).assertSuccess();
        assertShallowCalls(injected, 20, 40);   // rank 0's receives only: its sends pass the injection's count
        MpiJob.Result replicated = MpiJob.runWith(List.of("--replicas", "2"), 2, MpiJob.DEFAULT_TIMEOUT,
                P2pShallowPath.class).assertSuccess();
        assertTrue(replicated.stdout().contains("P2pShallowPath OK np=2"), replicated.stdout() + replicated.stderr());
        assertFalse(replicated.stdout().matches("(?s).*arrays [1-9].*"), replicated.stdout());
    }

    /**
     * The shallow path's calls through FFM from the first one on (FTHP_SHALLOW_FFM_AFTER=1; by default only once C2
     * has compiled the caller): the same calls taken, the same answers, the same errors.
     */
    @Test
    void theShallowPathThroughFfmAnswersTheSame() {
        Map<String, String> ffmAfter = Map.of("FTHP_SHALLOW_FFM_AFTER", "1");
        MpiJob.Result r = MpiJob.runWith(List.of(), ffmAfter, 2, MpiJob.DEFAULT_TIMEOUT, P2pShallowPath.class)
                .assertSuccess();
        assertShallowCalls(r, 40, 40);
        MpiJob.Result small = MpiJob.runWith(List.of(), ffmAfter, 2, MpiJob.DEFAULT_TIMEOUT,
                P2pSmallBlocking.class).assertSuccess();
        assertTrue(small.stdout().contains("P2pSmallBlocking OK np=2"), small.stdout() + small.stderr());
    }

    /**
     * A rank of a job without replicas killed while its peer waits in a receive of the shallow path: the rollback
     * in place ends that wait (it polls, the duty cycle between its polls), a spare takes the rank, and the job
     * prints what the run without failures prints.
     */
    @Test
    void aSurvivorWaitingInAShallowReceiveRollsBack() {
        java.time.Duration timeout = java.time.Duration.ofSeconds(180);
        String[] workload = {"50", "20", "10"};
        List<String> failureFree = FailureFreeRuns.sortedLines(ResilientPingPong.class, 2, timeout, workload);
        MpiJob.Result r = MpiJob.runWith(List.of("--spares", "1", "--checkpoint-interval", "600", "--restart", "1",
                "--kill", "1#163"), Map.of(), 2, timeout, ResilientPingPong.class, workload).assertSuccess();
        InPlaceRollback.assertRolledBackInPlace(r, failureFree, ResilientPingPong.class, 3);
        assertTrue(r.stdout().contains("ResilientPingPong OK"), r.stdout() + r.stderr());
    }

    private static void assertShallowCalls(MpiJob.Result r, int rank0, int rank1) {
        String out = r.stdout() + r.stderr();
        assertTrue(r.stdout().contains("P2pShallowPath OK np=2"), out);
        int[] expected = {rank0, rank1};
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(r.lines().contains("P2pShallowPath rank " + rank + " arrays " + expected[rank]), out);
            assertTrue(r.lines().contains("P2pShallowPath rank " + rank + " others 0"), out);
            assertTrue(r.lines().contains("P2pShallowPath rank " + rank + " errors OK"), out);
        }
    }

    /** The same program replicated: every call takes the general path, and the answers are the same. */
    @Test
    void smallBlockingReplicated() {
        MpiJob.Result r = MpiJob.runWith(java.util.List.of("--replicas", "2"), 2, MpiJob.DEFAULT_TIMEOUT,
                P2pSmallBlocking.class).assertSuccess();
        assertTrue(r.stdout().contains("P2pSmallBlocking OK np=2"), r.stdout() + r.stderr());
    }

    /** fthp-run's summary line of offered payloads: pulled, then pushed. */
    static final Pattern OFFERED = Pattern.compile(
            "(\\d+) large payloads copied from the sender's memory on its node, (\\d+) sent by the native library");
}

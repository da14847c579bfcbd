package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.fthp.it.programs.CompatPorts;
import org.fthp.it.programs.CompatStructure;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Drop-in compatibility with Open MPI's Java binding, structure side (issue
 * 17): predefined attributes and attribute caching, error handlers on
 * communicators, windows and files, createDistGraph, and intercommunicators
 * from openPort/accept/connect. Each program checks its results itself and
 * aborts the job on a wrong one; each runs unreplicated and with four replicas
 * (the replicas must reach the same results: the port rendezvous takes a
 * twin-decided wildcard). The replicated run of the port program kills the
 * connecting root's computational copy while the port-built intercommunicator
 * carries traffic: the repair must rebuild it as any other.
 */
class CompatStructureTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int NP = 4;

    /**
     * Traffic across the port-built intercommunicator: 80 turns of two calls,
     * 20 ms apart. Rank 1 makes fewer than 60 calls before them, so its 100th
     * call (the kill) is among them, after the intercommunicator is built.
     */
    private static final String[] PORT_TRAFFIC = {"80"};

    static Stream<Arguments> runs() {
        return Stream.of(
                Arguments.of(CompatStructure.class, 0, List.of(), new String[0]),
                Arguments.of(CompatStructure.class, 4, List.of(), new String[0]),
                Arguments.of(CompatPorts.class, 0, List.of(), new String[0]),
                Arguments.of(CompatPorts.class, 4, List.of("--kill", "1:cmp#100"), PORT_TRAFFIC));
    }

    @ParameterizedTest(name = "{0} replicas={1} {2}")
    @MethodSource("runs")
    void programPasses(Class<?> program, int replicas, List<String> kills, String[] args) {
        List<String> options = new ArrayList<>(kills);
        if (replicas > 0) {
            options.addAll(List.of("--replicas", Integer.toString(replicas)));
        }
        MpiJob.Result r = MpiJob.runWith(options, NP, TIMEOUT, program, args).assertSuccess();
        String ok = program.getSimpleName() + " OK np=" + NP;
        assertTrue(r.stdout().contains(ok), "expected '" + ok + "' in stdout:\n" + r.stdout() + "\n--- stderr ---\n"
                + r.stderr());
        assertTrue(r.stderr().contains("summary: " + NP + " logical ranks, " + replicas + " replicas"),
                "no run summary on stderr:\n" + r.stderr());
        if (!kills.isEmpty()) {
            assertTrue(r.stderr().contains("1 failure detected, 1 promotion, 1 repair"),
                    "the killed copy was not repaired by one promotion:\n" + r.stderr());
        }
    }
}

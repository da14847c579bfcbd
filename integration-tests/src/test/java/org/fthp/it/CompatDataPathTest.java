package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.fthp.it.programs.CompatBsendRepair;
import org.fthp.it.programs.CompatDataPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Drop-in compatibility with Open MPI's Java binding on the data path (issue
 * 17): mismatched buffer and datatype, negative displacements after a
 * buffer offset, element counts and Status setters, testSome/waitSome with
 * nothing active, and buffered sends that complete locally within the
 * attached buffer. Each program checks its own results and fails the job on
 * a wrong one; each runs unreplicated and with every rank replicated.
 */
class CompatDataPathTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int NP = 4;

    /** Two jobs: CompatDataPath runs CompatBsend's checks too (a JVM start is most of a small job's time). */
    @ParameterizedTest(name = "replicas={0}")
    @ValueSource(ints = {0, NP})
    void behavesAsOpenMpisBinding(int replicas) {
        Class<?> program = CompatDataPath.class;
        List<String> options = replicas == 0 ? List.of() : List.of("--replicas", Integer.toString(replicas));
        MpiJob.Result r = MpiJob.runWith(options, NP, TIMEOUT, program).assertSuccess();
        String ok = program.getSimpleName() + " OK np=" + NP;
        assertTrue(r.stdout().contains(ok), "expected '" + ok + "' in stdout:\n" + r.stdout() + "\n--- stderr ---\n"
                + r.stderr());
        if (replicas > 0) {
            assertTrue(r.stderr().contains("summary: " + NP + " logical ranks, " + replicas + " replicas"),
                    "no run summary on stderr:\n" + r.stderr());
        }
    }

    /**
     * A buffered send is logged like any send: with a computational copy killed among the exchanges, its
     * replica is promoted and every message still arrives (a bSend that waited through that repair once
     * posted on the replaced communicator and was lost).
     */
    @Test
    void bufferedSendsThroughARepair() {
        int np = 2;
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--nodes", "2", "--kill", "1:cmp@2"), np,
                TIMEOUT, CompatBsendRepair.class).assertSuccess();
        assertTrue(r.stdout().contains("CompatBsendRepair OK np=" + np), r.stdout() + "\n--- stderr ---\n" + r.stderr());
        assertTrue(r.stderr().contains("summary: 1 failure detected"), "the kill landed during the run:\n" + r.stderr());
    }
}

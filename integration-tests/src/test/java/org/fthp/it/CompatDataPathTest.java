package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.fthp.it.programs.CompatBsend;
import org.fthp.it.programs.CompatDataPath;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

    static Stream<Arguments> jobs() {
        return Stream.of(CompatDataPath.class, CompatBsend.class)
                .flatMap(p -> Stream.of(0, NP).map(m -> Arguments.of(p, m)));
    }

    @ParameterizedTest(name = "{0} replicas={1}")
    @MethodSource("jobs")
    void behavesAsOpenMpisBinding(Class<?> program, int replicas) {
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
}

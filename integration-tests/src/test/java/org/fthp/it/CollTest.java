package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.it.programs.CollBlocking;
import org.fthp.it.programs.CollInter;
import org.fthp.it.programs.CollNonblocking;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Collectives (blocking, nonblocking, intercommunicator): real MPI jobs; every program checks exact values and aborts the job on a mismatch. */
class CollTest {

    private static void runOk(int np, Class<?> program) {
        MpiJob.Result r = MpiJob.run(np, program).assertSuccess();
        String ok = program.getSimpleName() + " OK np=" + np;
        assertTrue(r.stdout().contains(ok), "expected '" + ok + "' in stdout:\n" + r.stdout() + "\n--- stderr ---\n" + r.stderr());
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collBlocking(int np) {
        runOk(np, CollBlocking.class);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collNonblocking(int np) {
        runOk(np, CollNonblocking.class);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collInter(int np) {
        runOk(np, CollInter.class);
    }
}

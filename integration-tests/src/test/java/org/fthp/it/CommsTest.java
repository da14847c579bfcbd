package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.it.programs.CommsGroupsTopo;
import org.fthp.it.programs.CommsProcNull;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Communicators, groups and topologies: real MPI jobs; every program checks exact values and aborts the job on a mismatch. */
class CommsTest {

    private static void runOk(int np, Class<?> program) {
        MpiJob.Result r = MpiJob.run(np, program).assertSuccess();
        String ok = program.getSimpleName() + " OK np=" + np;
        assertTrue(r.stdout().contains(ok), "expected '" + ok + "' in stdout:\n" + r.stdout() + "\n--- stderr ---\n" + r.stderr());
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void commsGroupsTopo(int np) {
        runOk(np, CommsGroupsTopo.class);
    }

    /** Small program isolating one behaviour (so a failure here cannot mask other checks); np 4 covers edge and interior ranks. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void commsProcNull(int np) {
        runOk(np, CommsProcNull.class);
    }
}

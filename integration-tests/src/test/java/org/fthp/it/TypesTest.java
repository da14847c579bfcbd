package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.it.programs.TypesAndOps;
import org.fthp.it.programs.TypesSlice;
import org.fthp.it.programs.TypesStructExtent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Derived datatypes and reduction operators: real MPI jobs; every program checks exact values and aborts the job on a mismatch. */
class TypesTest {

    private static void runOk(int np, Class<?> program) {
        MpiJob.Result r = MpiJob.run(np, program).assertSuccess();
        String ok = program.getSimpleName() + " OK np=" + np;
        assertTrue(r.stdout().contains(ok), "expected '" + ok + "' in stdout:\n" + r.stdout() + "\n--- stderr ---\n" + r.stderr());
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void typesAndOps(int np) {
        runOk(np, TypesAndOps.class);
    }

    /** Small program isolating one behaviour (so a failure here cannot mask other checks); np 4 covers edge and interior ranks. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void typesSlice(int np) {
        runOk(np, TypesSlice.class);
    }

    /** Small program isolating one behaviour (so a failure here cannot mask other checks); np 4 covers edge and interior ranks. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void typesStructExtent(int np) {
        runOk(np, TypesStructExtent.class);
    }
}

package org.fthp.it;

import org.fthp.it.programs.TypesAndOps;
import org.fthp.it.programs.TypesSlice;
import org.fthp.it.programs.TypesStructExtent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Derived datatypes and reduction operators: real MPI jobs; every program checks exact values and aborts the job on a mismatch. */
class TypesTest {

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void typesAndOps(int np) {
        FailureFreeRuns.assertOk(TypesAndOps.class, np);
    }

    /** Small program isolating one behaviour (so a failure here cannot mask other checks); np 4 covers edge and interior ranks. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void typesSlice(int np) {
        FailureFreeRuns.assertOk(TypesSlice.class, np);
    }

    /** Small program isolating one behaviour (so a failure here cannot mask other checks); np 4 covers edge and interior ranks. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void typesStructExtent(int np) {
        FailureFreeRuns.assertOk(TypesStructExtent.class, np);
    }
}

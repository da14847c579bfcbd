package org.fthp.it;

import org.fthp.it.programs.CommsGroupsTopo;
import org.fthp.it.programs.CommsProcNull;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Communicators, groups and topologies: real MPI jobs; every program checks exact values and aborts the job on a mismatch. */
class CommsTest {

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void commsGroupsTopo(int np) {
        FailureFreeRuns.assertOk(CommsGroupsTopo.class, np);
    }

    /** Small program isolating one behaviour (so a failure here cannot mask other checks); np 4 covers edge and interior ranks. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void commsProcNull(int np) {
        FailureFreeRuns.assertOk(CommsProcNull.class, np);
    }
}

package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fthp.it.programs.P2pBasics;
import org.fthp.it.programs.P2pNonblocking;
import org.fthp.it.programs.P2pProbe;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Point-to-point on real MPI jobs: the programs check exact values themselves
 * and print "&lt;Program&gt; OK rank r" on every rank when everything matched.
 */
class P2pTest {

    static void assertAllRanksOk(MpiJob.Result r, String program, int np) {
        r.assertSuccess();
        for (int rank = 0; rank < np; rank++) {
            String line = program + " OK rank " + rank;
            assertTrue(r.lines().contains(line), "missing '" + line + "' in\n" + r.stdout() + "\n" + r.stderr());
        }
        assertEquals(np, r.lines().stream().filter(l -> l.startsWith(program + " OK rank ")).count(),
                "one OK line per rank");
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void basics(int np) {
        assertAllRanksOk(MpiJob.run(np, P2pBasics.class), "P2pBasics", np);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void nonblocking(int np) {
        assertAllRanksOk(MpiJob.run(np, P2pNonblocking.class), "P2pNonblocking", np);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void probe(int np) {
        assertAllRanksOk(MpiJob.run(np, P2pProbe.class), "P2pProbe", np);
    }

    /** Large messages travel as header plus payload: probes, wildcards, several in flight, truncation. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void largeMessages(int np) {
        MpiJob.runOk(np, org.fthp.it.programs.P2pLarge.class);
    }
}

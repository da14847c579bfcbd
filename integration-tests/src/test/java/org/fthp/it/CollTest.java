package org.fthp.it;

import org.fthp.it.programs.CollBlocking;
import org.fthp.it.programs.CollInter;
import org.fthp.it.programs.CollNeighborWildcard;
import org.fthp.it.programs.CollNonblocking;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Collectives (blocking, nonblocking, intercommunicator): real MPI jobs; every program checks exact values and aborts the job on a mismatch. */
class CollTest {

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collBlocking(int np) {
        FailureFreeRuns.assertOk(CollBlocking.class, np);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collNonblocking(int np) {
        FailureFreeRuns.assertOk(CollNonblocking.class, np);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collInter(int np) {
        FailureFreeRuns.assertOk(CollInter.class, np);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void neighbourTrafficIsInvisibleToWildcards(int np) {
        FailureFreeRuns.assertOk(CollNeighborWildcard.class, np);
    }

    /** Odd sizes too: the small-vector allreduce folds pairs before doubling. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {3, 6})
    void allreduceKeepsRankOrderAndBits(int np) {
        FailureFreeRuns.assertOk(org.fthp.it.programs.CollAllreduceOrder.class, np);
    }
}

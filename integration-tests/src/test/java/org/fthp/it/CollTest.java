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
        MpiJob.runOk(np, CollBlocking.class);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collNonblocking(int np) {
        MpiJob.runOk(np, CollNonblocking.class);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void collInter(int np) {
        MpiJob.runOk(np, CollInter.class);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4})
    void neighbourTrafficIsInvisibleToWildcards(int np) {
        MpiJob.runOk(np, CollNeighborWildcard.class);
    }

    /** Odd sizes too: the small-vector allreduce folds pairs before doubling. */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {3, 6})
    void allreduceKeepsRankOrderAndBits(int np) {
        MpiJob.runOk(np, org.fthp.it.programs.CollAllreduceOrder.class);
    }
}

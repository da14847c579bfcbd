package org.fthp.apps.cloverleaf;

import java.util.List;

/**
 * The settings of one run, as read from a {@code clover.in} deck, with the reference's defaults for
 * anything the deck leaves out. {@code states} holds state 1..N in order, already shrunk as the
 * reference does after reading.
 */
record Deck(double xmin, double ymin, double xmax, double ymax, int xCells, int yCells,
            double endTime, int endStep, int summaryFrequency, int visitFrequency,
            double dtInit, double dtMax, double dtMin, double dtRise,
            double dtcSafe, double dtuSafe, double dtvSafe, double dtdivSafe,
            int testProblem, boolean profilerOn, List<State> states, String text) {

    /** The reference's "very big" step count, the default end_step. */
    static final int G_IBIG = 640000;

    double dx() {
        return (xmax - xmin) / (double) xCells;
    }

    double dy() {
        return (ymax - ymin) / (double) yCells;
    }

    /**
     * The deck the reference writes and runs when there is no clover.in: a 10x2 mesh that takes well
     * under a second and checks itself as test problem 1.
     */
    static final String DEFAULT_DECK = """
            *clover
             state 1 density=0.2 energy=1.0
             state 2 density=1.0 energy=2.5 geometry=rectangle xmin=0.0 xmax=5.0 ymin=0.0 ymax=2.0
             x_cells=10
             y_cells=2
             xmin=0.0
             ymin=0.0
             xmax=10.0
             ymax=2.0
             initial_timestep=0.04
             timestep_rise=1.5
             max_timestep=0.04
             end_time=3.0
             test_problem 1
            *endclover
            """;
}

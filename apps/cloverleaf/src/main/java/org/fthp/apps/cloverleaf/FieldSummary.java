package org.fthp.apps.cloverleaf;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Mesh-wide totals of volume, mass, pressure, internal and kinetic energy (the reference's
 * field_summary), summed over the chunk and then over ranks onto rank 0, and the reference's
 * self-check of the final kinetic energy for test problems 1 to 5.
 */
final class FieldSummary {

    /**
     * Final kinetic energy of test problems 1..5 as the reference has it (from an Intel compiler with
     * IEEE options on one core): 1 is the built-in 10x2 deck, 2 clover_bm_short, 3 clover_bm,
     * 4 clover_bm16_short, 5 clover_bm16.
     */
    static final double[] EXPECTED_KE = {0.0, 1.82280367310258, 1.19316898756307, 2.58984003503994,
        0.307475452287895, 4.85350315783719};

    /** The reference passes a test when the final kinetic energy is within this many percent. */
    static final double TOLERANCE_PERCENT = 0.001;

    /** vol, mass, press, ie, ke of the last summary (rank 0 holds the global sums). */
    final double[] totals = new double[5];
    private final double[] local = new double[5];

    static final int VOL = 0;
    static final int MASS = 1;
    static final int PRESS = 2;
    static final int IE = 3;
    static final int KE = 4;

    /** Sums over this chunk's cells, into {@code out} in the order vol, mass, press, ie, ke. */
    static void chunkTotals(Chunk c, double[] out) {
        int w = c.stride;
        double vol = 0.0, mass = 0.0, ie = 0.0, ke = 0.0, press = 0.0;
        double[] xvel0 = c.xvel0;
        double[] yvel0 = c.yvel0;
        double[] volume = c.volume;
        double[] density0 = c.density0;
        double[] energy0 = c.energy0;
        double[] pressure = c.pressure;
        for (int k = 1; k <= c.yMax; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax; i++) {
                double vsqrd = 0.0;
                // the cell's four vertices, in the reference's order
                vsqrd = vsqrd + 0.25 * (xvel0[i] * xvel0[i] + yvel0[i] * yvel0[i]);
                vsqrd = vsqrd + 0.25 * (xvel0[i + 1] * xvel0[i + 1] + yvel0[i + 1] * yvel0[i + 1]);
                vsqrd = vsqrd + 0.25 * (xvel0[i + w] * xvel0[i + w] + yvel0[i + w] * yvel0[i + w]);
                vsqrd = vsqrd + 0.25 * (xvel0[i + 1 + w] * xvel0[i + 1 + w] + yvel0[i + 1 + w] * yvel0[i + 1 + w]);
                double cellVol = volume[i];
                double cellMass = cellVol * density0[i];
                vol = vol + cellVol;
                mass = mass + cellMass;
                ie = ie + cellMass * energy0[i];
                ke = ke + cellMass * 0.5 * vsqrd;
                press = press + cellVol * pressure[i];
            }
        }
        out[VOL] = vol;
        out[MASS] = mass;
        out[PRESS] = press;
        out[IE] = ie;
        out[KE] = ke;
    }

    /** Refreshes pressure from the current state, sums, and reduces onto rank 0 (collective). */
    void compute(Chunk c, Intracomm comm) throws MPIException {
        IdealGas.compute(c, false);
        chunkTotals(c, local);
        comm.reduce(local, totals, 5, MPI.DOUBLE, MPI.SUM, 0);
    }

    /** Percentage difference of the final kinetic energy from the expected one, as the reference computes it. */
    static double qaDiff(int testProblem, double ke) {
        return Math.abs((100.0 * (ke / EXPECTED_KE[testProblem])) - 100.0);
    }

    static boolean hasExpected(int testProblem) {
        return testProblem >= 1 && testProblem < EXPECTED_KE.length;
    }
}

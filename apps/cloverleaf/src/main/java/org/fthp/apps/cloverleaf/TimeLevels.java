package org.fthp.apps.cloverleaf;

/**
 * Copies between the start-of-step (0) and end-of-step (1) fields: the reference's revert kernel
 * (before the PdV corrector) and reset_field kernel (at the end of a step).
 */
final class TimeLevels {

    private TimeLevels() {}

    /** Back to the start-of-step density and energy, ready for the corrector. */
    static void revert(Chunk c) {
        copyCells(c, c.density0, c.density1);
        copyCells(c, c.energy0, c.energy1);
    }

    /** End-of-step density, energy and velocities become the next step's starting values. */
    static void reset(Chunk c) {
        copyCells(c, c.density1, c.density0);
        copyCells(c, c.energy1, c.energy0);
        copyVertices(c, c.xvel1, c.xvel0);
        copyVertices(c, c.yvel1, c.yvel0);
    }

    private static void copyCells(Chunk c, double[] from, double[] to) {
        for (int k = 1; k <= c.yMax; k++) {
            int i = c.idx(1, k);
            System.arraycopy(from, i, to, i, c.xMax);
        }
    }

    private static void copyVertices(Chunk c, double[] from, double[] to) {
        for (int k = 1; k <= c.yMax + 1; k++) {
            int i = c.idx(1, k);
            System.arraycopy(from, i, to, i, c.xMax + 1);
        }
    }
}

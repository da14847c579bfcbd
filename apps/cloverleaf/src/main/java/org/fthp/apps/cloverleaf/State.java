package org.fthp.apps.cloverleaf;

/**
 * One material state of a deck ("state N density=... energy=... geometry=..."). State 1 is the
 * background; later states overwrite it where their geometry covers a cell.
 */
record State(int number, double density, double energy, double xvel, double yvel,
             Geometry geometry, double xmin, double xmax, double ymin, double ymax, double radius) {

    enum Geometry { RECTANGLE, CIRCLE, POINT }

    /**
     * This state with its box shrunk by a hundredth of a cell on every side. The reference does this
     * to every state but the first so that a boundary lying exactly on a cell edge cannot, through
     * round-off, claim the neighbouring cell.
     */
    State shrunkBy(double dx, double dy) {
        return new State(number, density, energy, xvel, yvel, geometry,
                xmin + dx / 100.0, xmax - dx / 100.0, ymin + dy / 100.0, ymax - dy / 100.0, radius);
    }
}

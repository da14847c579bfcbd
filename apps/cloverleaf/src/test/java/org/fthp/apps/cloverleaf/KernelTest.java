package org.fthp.apps.cloverleaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Single-chunk kernel checks, no MPI: a gas at rest stays at rest, walls reflect, mass is conserved. */
class KernelTest {

    private static Deck deck(String body) throws DeckException {
        return DeckParser.parse("*clover\n" + body + "\n*endclover\n");
    }

    private static Chunk generated(Deck d) {
        Chunk c = new Chunk(1, d.xCells(), 1, d.yCells());
        Setup.geometry(c, d);
        Setup.generate(c, d);
        return c;
    }

    private static final int[] ALONE = {Decomposition.EXTERNAL, Decomposition.EXTERNAL,
        Decomposition.EXTERNAL, Decomposition.EXTERNAL};

    @Test
    void idealGasPressureAndSoundSpeed() throws Exception {
        Deck d = deck(" state 1 density=2.0 energy=3.0\n x_cells=4 y_cells=3");
        Chunk c = generated(d);
        IdealGas.compute(c, false);
        int i = c.idx(2, 2);
        assertEquals(0.4 * 2.0 * 3.0, c.pressure[i], 1e-14);
        // c^2 = gamma * p / rho for an ideal gas
        assertEquals(Math.sqrt(1.4 * c.pressure[i] / 2.0), c.soundspeed[i], 1e-14);
    }

    @Test
    void uniformGasAtRestStaysAtRest() throws Exception {
        Deck d = deck(" state 1 density=1.0 energy=2.5\n x_cells=6 y_cells=5 xmax=6 ymax=5");
        Chunk c = generated(d);
        IdealGas.compute(c, false);
        Boundary.reflect(c, ALONE, Field.set(Field.ALL), 2);
        Viscosity.compute(c);
        double dt = CalcDt.compute(c, d);
        // sound-speed limit: dtc_safe * dx / c
        assertEquals(0.7 * 1.0 / Math.sqrt(1.4 * 0.4 * 2.5), dt, 1e-14);
        PdV.compute(c, true, dt);
        Accelerate.compute(c, dt);
        PdV.compute(c, false, dt);
        FluxCalc.compute(c, dt);
        for (int k = 1; k <= c.yMax; k++) {
            for (int j = 1; j <= c.xMax; j++) {
                int i = c.idx(j, k);
                assertEquals(0.0, c.viscosity[i]);
                assertEquals(1.0, c.density1[i], 1e-15);
                assertEquals(2.5, c.energy1[i], 1e-15);
                assertEquals(0.0, c.xvel1[i]);
                assertEquals(0.0, c.volFluxX[i]);
            }
        }
    }

    @Test
    void wallsMirrorCellsAndFlipNormalVelocity() throws Exception {
        Deck d = deck(" state 1 density=1.0 energy=1.0\n x_cells=4 y_cells=4");
        Chunk c = generated(d);
        for (int k = 1; k <= 5; k++) {
            for (int j = 1; j <= 5; j++) {
                c.xvel0[c.idx(j, k)] = 10 * j + k;
                c.yvel0[c.idx(j, k)] = 10 * j + k;
                c.density0[c.idx(Math.min(j, 4), Math.min(k, 4))] = 10 * j + k;
            }
        }
        Boundary.reflect(c, ALONE, Field.set(Field.DENSITY0, Field.XVEL0, Field.YVEL0), 2);
        assertEquals(c.density0[c.idx(1, 3)], c.density0[c.idx(0, 3)]);
        assertEquals(c.density0[c.idx(2, 3)], c.density0[c.idx(-1, 3)]);
        assertEquals(-c.xvel0[c.idx(2, 3)], c.xvel0[c.idx(0, 3)]);
        assertEquals(c.yvel0[c.idx(2, 3)], c.yvel0[c.idx(0, 3)]);
        assertEquals(-c.yvel0[c.idx(3, 2)], c.yvel0[c.idx(3, 0)]);
        assertEquals(c.xvel0[c.idx(3, 4)], c.xvel0[c.idx(3, 6)]);
        // corners end up as the reflection of the reflection
        assertEquals(c.density0[c.idx(1, 1)], c.density0[c.idx(0, 0)]);
    }

    @Test
    void advectionConservesMass() throws Exception {
        Deck d = deck(" state 1 density=1.0 energy=1.0\n"
                + " state 2 density=3.0 energy=2.0 xvel=0.5 yvel=-0.25 geometry=circle xmin=5 ymin=5 radius=2.5\n"
                + " x_cells=10 y_cells=10 xmax=10 ymax=10");
        Chunk c = generated(d);
        double[] before = new double[5];
        double[] after = new double[5];
        IdealGas.compute(c, false);
        FieldSummary.chunkTotals(c, before);
        int all = Field.set(Field.ALL);
        Boundary.reflect(c, ALONE, all, 2);
        double dt = 0.02;
        Accelerate.compute(c, dt);
        Boundary.reflect(c, ALONE, all, 2);
        PdV.compute(c, false, dt);
        FluxCalc.compute(c, dt);
        Boundary.reflect(c, ALONE, all, 2);
        AdvecCell.sweep(c, true, 1);
        Boundary.reflect(c, ALONE, all, 2);
        AdvecMom.sweep(c, true, 1);
        AdvecCell.sweep(c, false, 2);
        Boundary.reflect(c, ALONE, all, 2);
        AdvecMom.sweep(c, false, 2);
        TimeLevels.reset(c);
        FieldSummary.chunkTotals(c, after);
        assertTrue(after[FieldSummary.KE] > 0.0);
        assertEquals(before[FieldSummary.VOL], after[FieldSummary.VOL], 1e-12);
        // a Lagrangian step plus remap moves mass around but a closed box keeps all of it
        assertEquals(before[FieldSummary.MASS], after[FieldSummary.MASS], 1e-12 * before[FieldSummary.MASS]);
    }
}

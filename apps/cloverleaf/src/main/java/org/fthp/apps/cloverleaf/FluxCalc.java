package org.fthp.apps.cloverleaf;

/** Volume fluxes through cell faces from the time-averaged face velocities (the reference's flux_calc kernel). */
final class FluxCalc {

    private FluxCalc() {}

    static void compute(Chunk c, double dt) {
        int w = c.stride;
        double[] xarea = c.xarea;
        double[] yarea = c.yarea;
        double[] xvel0 = c.xvel0;
        double[] xvel1 = c.xvel1;
        double[] yvel0 = c.yvel0;
        double[] yvel1 = c.yvel1;
        double[] volFluxX = c.volFluxX;
        double[] volFluxY = c.volFluxY;
        for (int k = 1; k <= c.yMax; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax + 1; i++) {
                volFluxX[i] = 0.25 * dt * xarea[i] * (xvel0[i] + xvel0[i + w] + xvel1[i] + xvel1[i + w]);
            }
        }
        for (int k = 1; k <= c.yMax + 1; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax; i++) {
                volFluxY[i] = 0.25 * dt * yarea[i] * (yvel0[i] + yvel0[i + 1] + yvel1[i] + yvel1[i + 1]);
            }
        }
    }
}

package org.fthp.apps.cloverleaf;

/**
 * The Lagrangian update of density and energy from the change of cell volume (the reference's PdV
 * kernel). The predictor takes a half step with the start-of-step velocities; the corrector a full
 * step with the average of start- and end-of-step velocities.
 */
final class PdV {

    private PdV() {}

    static void compute(Chunk c, boolean predict, double dt) {
        int w = c.stride;
        double[] xarea = c.xarea;
        double[] yarea = c.yarea;
        double[] volume = c.volume;
        double[] density0 = c.density0;
        double[] density1 = c.density1;
        double[] energy0 = c.energy0;
        double[] energy1 = c.energy1;
        double[] pressure = c.pressure;
        double[] viscosity = c.viscosity;
        double[] xvel0 = c.xvel0;
        double[] yvel0 = c.yvel0;
        // In the predictor the reference averages xvel0 with itself, so reading xvel0 twice is the same.
        double[] xvelB = predict ? c.xvel0 : c.xvel1;
        double[] yvelB = predict ? c.yvel0 : c.yvel1;
        for (int k = 1; k <= c.yMax; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax; i++) {
                double leftFlux, rightFlux, bottomFlux, topFlux;
                if (predict) {
                    leftFlux = (xarea[i] * (xvel0[i] + xvel0[i + w] + xvelB[i] + xvelB[i + w])) * 0.25 * dt * 0.5;
                    rightFlux = (xarea[i + 1] * (xvel0[i + 1] + xvel0[i + 1 + w] + xvelB[i + 1] + xvelB[i + 1 + w]))
                            * 0.25 * dt * 0.5;
                    bottomFlux = (yarea[i] * (yvel0[i] + yvel0[i + 1] + yvelB[i] + yvelB[i + 1])) * 0.25 * dt * 0.5;
                    topFlux = (yarea[i + w] * (yvel0[i + w] + yvel0[i + 1 + w] + yvelB[i + w] + yvelB[i + 1 + w]))
                            * 0.25 * dt * 0.5;
                } else {
                    leftFlux = (xarea[i] * (xvel0[i] + xvel0[i + w] + xvelB[i] + xvelB[i + w])) * 0.25 * dt;
                    rightFlux = (xarea[i + 1] * (xvel0[i + 1] + xvel0[i + 1 + w] + xvelB[i + 1] + xvelB[i + 1 + w]))
                            * 0.25 * dt;
                    bottomFlux = (yarea[i] * (yvel0[i] + yvel0[i + 1] + yvelB[i] + yvelB[i + 1])) * 0.25 * dt;
                    topFlux = (yarea[i + w] * (yvel0[i + w] + yvel0[i + 1 + w] + yvelB[i + w] + yvelB[i + 1 + w]))
                            * 0.25 * dt;
                }
                double totalFlux = rightFlux - leftFlux + topFlux - bottomFlux;
                double volumeChange = volume[i] / (volume[i] + totalFlux);
                double recipVolume = 1.0 / volume[i];
                double energyChange = (pressure[i] / density0[i] + viscosity[i] / density0[i]) * totalFlux * recipVolume;
                energy1[i] = energy0[i] - energyChange;
                density1[i] = density0[i] * volumeChange;
            }
        }
    }
}

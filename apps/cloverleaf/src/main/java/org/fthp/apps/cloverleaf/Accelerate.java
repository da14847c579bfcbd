package org.fthp.apps.cloverleaf;

/**
 * Vertex velocities at the end of the step from the pressure and viscosity gradients around each
 * vertex (the reference's accelerate kernel).
 */
final class Accelerate {

    private Accelerate() {}

    static void compute(Chunk c, double dt) {
        int w = c.stride;
        double[] density0 = c.density0;
        double[] volume = c.volume;
        double[] xarea = c.xarea;
        double[] yarea = c.yarea;
        double[] pressure = c.pressure;
        double[] viscosity = c.viscosity;
        double[] xvel0 = c.xvel0;
        double[] yvel0 = c.yvel0;
        double[] xvel1 = c.xvel1;
        double[] yvel1 = c.yvel1;
        // The reference runs five loops over the same vertices; each vertex only reads its own
        // step-by-mass, so one loop gives identical results with a scalar instead of an array.
        for (int k = 1; k <= c.yMax + 1; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax + 1; i++) {
                double nodalMass = (density0[i - 1 - w] * volume[i - 1 - w]
                        + density0[i - w] * volume[i - w]
                        + density0[i] * volume[i]
                        + density0[i - 1] * volume[i - 1]) * 0.25;
                double stepByMass = 0.5 * dt / nodalMass;
                double xv = xvel0[i] - stepByMass * (xarea[i] * (pressure[i] - pressure[i - 1])
                        + xarea[i - w] * (pressure[i - w] - pressure[i - 1 - w]));
                double yv = yvel0[i] - stepByMass * (yarea[i] * (pressure[i] - pressure[i - w])
                        + yarea[i - 1] * (pressure[i - 1] - pressure[i - 1 - w]));
                xvel1[i] = xv - stepByMass * (xarea[i] * (viscosity[i] - viscosity[i - 1])
                        + xarea[i - w] * (viscosity[i - w] - viscosity[i - 1 - w]));
                yvel1[i] = yv - stepByMass * (yarea[i] * (viscosity[i] - viscosity[i - w])
                        + yarea[i - 1] * (viscosity[i - 1] - viscosity[i - 1 - w]));
            }
        }
    }
}

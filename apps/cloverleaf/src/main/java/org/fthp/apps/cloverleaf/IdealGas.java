package org.fthp.apps.cloverleaf;

/** Equation of state: pressure and sound speed of an ideal gas with gamma 1.4 (the reference's ideal_gas kernel). */
final class IdealGas {

    private IdealGas() {}

    /**
     * @param predict true to use the half-step density and energy (density1, energy1) of the PdV
     *                predictor, false for the start-of-step values
     */
    static void compute(Chunk c, boolean predict) {
        double[] density = predict ? c.density1 : c.density0;
        double[] energy = predict ? c.energy1 : c.energy0;
        double[] pressure = c.pressure;
        double[] soundspeed = c.soundspeed;
        for (int k = 1; k <= c.yMax; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax; i++) {
                double d = density[i];
                double v = 1.0 / d;
                double p = (1.4 - 1.0) * d * energy[i];
                double pressureByEnergy = (1.4 - 1.0) * d;
                double pressureByVolume = -d * p;
                double soundSpeedSquared = v * v * (p * pressureByEnergy - pressureByVolume);
                pressure[i] = p;
                soundspeed[i] = Math.sqrt(soundSpeedSquared);
            }
        }
    }
}

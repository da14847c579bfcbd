package org.fthp.apps.cloverleaf;

/**
 * Advective remap of cell density and energy in one direction (the reference's advec_cell kernel):
 * second order, van Leer limited, directionally split. Pre- and post-sweep volumes depend on whether
 * this is the first or second sweep of the step.
 */
final class AdvecCell {

    private static final double ONE_BY_SIX = 1.0 / 6.0;

    private AdvecCell() {}

    static void sweep(Chunk c, boolean xDirection, int sweepNumber) {
        if (xDirection) {
            sweepX(c, sweepNumber);
        } else {
            sweepY(c, sweepNumber);
        }
    }

    private static void sweepX(Chunk c, int sweepNumber) {
        int w = c.stride;
        int h = Chunk.HALO;
        double[] volume = c.volume;
        double[] vfx = c.volFluxX;
        double[] vfy = c.volFluxY;
        double[] mfx = c.massFluxX;
        double[] density1 = c.density1;
        double[] energy1 = c.energy1;
        double[] preVol = c.work1;
        double[] enerFlux = c.work3;
        double[] vertexdx = c.vertexdx;

        // post_vol is not needed by the update below, so only pre_vol is kept
        for (int k = 1 - h; k <= c.yMax + h; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1 - h; i <= row + c.xMax + h; i++) {
                if (sweepNumber == 1) {
                    preVol[i] = volume[i] + (vfx[i + 1] - vfx[i] + vfy[i + w] - vfy[i]);
                } else {
                    preVol[i] = volume[i] + vfx[i + 1] - vfx[i];
                }
            }
        }

        for (int k = 1; k <= c.yMax; k++) {
            int row = c.idx(0, k);
            for (int j = 1; j <= c.xMax + 2; j++) {
                int i = row + j;
                int upwind, donor, downwind, dif;
                if (vfx[i] > 0.0) {
                    upwind = j - 2;
                    donor = j - 1;
                    downwind = j;
                    dif = donor;
                } else {
                    upwind = Math.min(j + 1, c.xMax + 2);
                    donor = j;
                    downwind = j - 1;
                    dif = upwind;
                }
                int iu = row + upwind;
                int id = row + donor;
                int idw = row + downwind;
                double sigmat = Math.abs(vfx[i]) / preVol[id];
                double sigma3 = (1.0 + sigmat) * (vertexdx[j + h] / vertexdx[dif + h]);
                double sigma4 = 2.0 - sigmat;
                double sigmav = sigmat;

                double diffuw = density1[id] - density1[iu];
                double diffdw = density1[idw] - density1[id];
                double limiter;
                if (diffuw * diffdw > 0.0) {
                    limiter = (1.0 - sigmav) * Math.copySign(1.0, diffdw) * Math.min(Math.min(Math.abs(diffuw),
                            Math.abs(diffdw)), ONE_BY_SIX * (sigma3 * Math.abs(diffuw) + sigma4 * Math.abs(diffdw)));
                } else {
                    limiter = 0.0;
                }
                double massFlux = vfx[i] * (density1[id] + limiter);
                mfx[i] = massFlux;

                double sigmam = Math.abs(massFlux) / (density1[id] * preVol[id]);
                diffuw = energy1[id] - energy1[iu];
                diffdw = energy1[idw] - energy1[id];
                if (diffuw * diffdw > 0.0) {
                    limiter = (1.0 - sigmam) * Math.copySign(1.0, diffdw) * Math.min(Math.min(Math.abs(diffuw),
                            Math.abs(diffdw)), ONE_BY_SIX * (sigma3 * Math.abs(diffuw) + sigma4 * Math.abs(diffdw)));
                } else {
                    limiter = 0.0;
                }
                enerFlux[i] = massFlux * (energy1[id] + limiter);
            }
        }

        for (int k = 1; k <= c.yMax; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax; i++) {
                double preMass = density1[i] * preVol[i];
                double postMass = preMass + mfx[i] - mfx[i + 1];
                double postEner = (energy1[i] * preMass + enerFlux[i] - enerFlux[i + 1]) / postMass;
                double advecVol = preVol[i] + vfx[i] - vfx[i + 1];
                density1[i] = postMass / advecVol;
                energy1[i] = postEner;
            }
        }
    }

    private static void sweepY(Chunk c, int sweepNumber) {
        int w = c.stride;
        int h = Chunk.HALO;
        double[] volume = c.volume;
        double[] vfx = c.volFluxX;
        double[] vfy = c.volFluxY;
        double[] mfy = c.massFluxY;
        double[] density1 = c.density1;
        double[] energy1 = c.energy1;
        double[] preVol = c.work1;
        double[] enerFlux = c.work3;
        double[] vertexdy = c.vertexdy;

        for (int k = 1 - h; k <= c.yMax + h; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1 - h; i <= row + c.xMax + h; i++) {
                if (sweepNumber == 1) {
                    preVol[i] = volume[i] + (vfy[i + w] - vfy[i] + vfx[i + 1] - vfx[i]);
                } else {
                    preVol[i] = volume[i] + vfy[i + w] - vfy[i];
                }
            }
        }

        for (int k = 1; k <= c.yMax + 2; k++) {
            int upwind, donor, downwind, dif;
            int row = c.idx(0, k);
            for (int j = 1; j <= c.xMax; j++) {
                int i = row + j;
                if (vfy[i] > 0.0) {
                    upwind = k - 2;
                    donor = k - 1;
                    downwind = k;
                    dif = donor;
                } else {
                    upwind = Math.min(k + 1, c.yMax + 2);
                    donor = k;
                    downwind = k - 1;
                    dif = upwind;
                }
                int iu = c.idx(j, upwind);
                int id = c.idx(j, donor);
                int idw = c.idx(j, downwind);
                double sigmat = Math.abs(vfy[i]) / preVol[id];
                double sigma3 = (1.0 + sigmat) * (vertexdy[k + h] / vertexdy[dif + h]);
                double sigma4 = 2.0 - sigmat;
                double sigmav = sigmat;

                double diffuw = density1[id] - density1[iu];
                double diffdw = density1[idw] - density1[id];
                double limiter;
                if (diffuw * diffdw > 0.0) {
                    limiter = (1.0 - sigmav) * Math.copySign(1.0, diffdw) * Math.min(Math.min(Math.abs(diffuw),
                            Math.abs(diffdw)), ONE_BY_SIX * (sigma3 * Math.abs(diffuw) + sigma4 * Math.abs(diffdw)));
                } else {
                    limiter = 0.0;
                }
                double massFlux = vfy[i] * (density1[id] + limiter);
                mfy[i] = massFlux;

                double sigmam = Math.abs(massFlux) / (density1[id] * preVol[id]);
                diffuw = energy1[id] - energy1[iu];
                diffdw = energy1[idw] - energy1[id];
                if (diffuw * diffdw > 0.0) {
                    limiter = (1.0 - sigmam) * Math.copySign(1.0, diffdw) * Math.min(Math.min(Math.abs(diffuw),
                            Math.abs(diffdw)), ONE_BY_SIX * (sigma3 * Math.abs(diffuw) + sigma4 * Math.abs(diffdw)));
                } else {
                    limiter = 0.0;
                }
                enerFlux[i] = massFlux * (energy1[id] + limiter);
            }
        }

        for (int k = 1; k <= c.yMax; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax; i++) {
                double preMass = density1[i] * preVol[i];
                double postMass = preMass + mfy[i] - mfy[i + w];
                double postEner = (energy1[i] * preMass + enerFlux[i] - enerFlux[i + w]) / postMass;
                double advecVol = preVol[i] + vfy[i] - vfy[i + w];
                density1[i] = postMass / advecVol;
                energy1[i] = postEner;
            }
        }
    }
}

package org.fthp.apps.cloverleaf;

/**
 * Advective remap of the vertex velocities in one direction (the reference's advec_mom kernel):
 * the mass fluxes of the cell sweep are moved to the staggered (vertex-centred) mesh, then momentum
 * is remapped with a van Leer limiter.
 *
 * <p>The reference calls its kernel once for xvel1 and once for yvel1 and recomputes the staggered
 * masses and fluxes each time; they do not depend on the velocity, so {@link #sweep} computes them
 * once and remaps both velocities with them. The results are identical.
 */
final class AdvecMom {

    private AdvecMom() {}

    static void sweep(Chunk c, boolean xDirection, int sweepNumber) {
        int direction = xDirection ? 1 : 2;
        int momSweep = direction + 2 * (sweepNumber - 1);
        postVolume(c, momSweep);
        if (xDirection) {
            stagger(c, true);
            remapX(c, c.xvel1);
            remapX(c, c.yvel1);
        } else {
            stagger(c, false);
            remapY(c, c.xvel1);
            remapY(c, c.yvel1);
        }
    }

    /** Cell volumes after this sweep (work5); the reference's pre_vol is never read, so it is not kept. */
    private static void postVolume(Chunk c, int momSweep) {
        int w = c.stride;
        int h = Chunk.HALO;
        double[] volume = c.volume;
        double[] vfx = c.volFluxX;
        double[] vfy = c.volFluxY;
        double[] postVol = c.work5;
        for (int k = 1 - h; k <= c.yMax + h; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1 - h; i <= row + c.xMax + h; i++) {
                switch (momSweep) {
                    case 1 -> postVol[i] = volume[i] + vfy[i + w] - vfy[i]; // x, first sweep
                    case 2 -> postVol[i] = volume[i] + vfx[i + 1] - vfx[i]; // y, first sweep
                    default -> postVol[i] = volume[i]; // second sweep in either direction
                }
            }
        }
    }

    /** Node fluxes (work1), node masses after (work2) and before (work3) the sweep. */
    private static void stagger(Chunk c, boolean xDirection) {
        int w = c.stride;
        double[] nodeFlux = c.work1;
        double[] nodeMassPost = c.work2;
        double[] nodeMassPre = c.work3;
        double[] postVol = c.work5;
        double[] density1 = c.density1;
        if (xDirection) {
            double[] mfx = c.massFluxX;
            for (int k = 1; k <= c.yMax + 1; k++) {
                int row = c.idx(0, k);
                for (int i = row - 1; i <= row + c.xMax + 2; i++) {
                    nodeFlux[i] = 0.25 * (mfx[i - w] + mfx[i] + mfx[i + 1 - w] + mfx[i + 1]);
                }
            }
            for (int k = 1; k <= c.yMax + 1; k++) {
                int row = c.idx(0, k);
                for (int i = row; i <= row + c.xMax + 2; i++) {
                    nodeMassPost[i] = 0.25 * (density1[i - w] * postVol[i - w]
                            + density1[i] * postVol[i]
                            + density1[i - 1 - w] * postVol[i - 1 - w]
                            + density1[i - 1] * postVol[i - 1]);
                }
            }
            for (int k = 1; k <= c.yMax + 1; k++) {
                int row = c.idx(0, k);
                for (int i = row; i <= row + c.xMax + 2; i++) {
                    nodeMassPre[i] = nodeMassPost[i] - nodeFlux[i - 1] + nodeFlux[i];
                }
            }
        } else {
            double[] mfy = c.massFluxY;
            for (int k = -1; k <= c.yMax + 2; k++) {
                int row = c.idx(0, k);
                for (int i = row + 1; i <= row + c.xMax + 1; i++) {
                    nodeFlux[i] = 0.25 * (mfy[i - 1] + mfy[i] + mfy[i - 1 + w] + mfy[i + w]);
                }
            }
            for (int k = 0; k <= c.yMax + 2; k++) {
                int row = c.idx(0, k);
                for (int i = row + 1; i <= row + c.xMax + 1; i++) {
                    nodeMassPost[i] = 0.25 * (density1[i - w] * postVol[i - w]
                            + density1[i] * postVol[i]
                            + density1[i - 1 - w] * postVol[i - 1 - w]
                            + density1[i - 1] * postVol[i - 1]);
                }
            }
            for (int k = 0; k <= c.yMax + 2; k++) {
                int row = c.idx(0, k);
                for (int i = row + 1; i <= row + c.xMax + 1; i++) {
                    nodeMassPre[i] = nodeMassPost[i] - nodeFlux[i - w] + nodeFlux[i];
                }
            }
        }
    }

    private static void remapX(Chunk c, double[] vel1) {
        int h = Chunk.HALO;
        double[] nodeFlux = c.work1;
        double[] nodeMassPost = c.work2;
        double[] nodeMassPre = c.work3;
        double[] momFlux = c.work4;
        double[] celldx = c.celldx;
        for (int k = 1; k <= c.yMax + 1; k++) {
            int row = c.idx(0, k);
            for (int j = 0; j <= c.xMax + 1; j++) {
                int i = row + j;
                double flux = nodeFlux[i];
                int upwind, donor, downwind, dif;
                if (flux < 0.0) {
                    upwind = j + 2;
                    donor = j + 1;
                    downwind = j;
                    dif = donor;
                } else {
                    upwind = j - 1;
                    donor = j;
                    downwind = j + 1;
                    dif = upwind;
                }
                int id = row + donor;
                double sigma = Math.abs(flux) / nodeMassPre[id];
                double width = celldx[j + h];
                double vdiffuw = vel1[id] - vel1[row + upwind];
                double vdiffdw = vel1[row + downwind] - vel1[id];
                double limiter = 0.0;
                if (vdiffuw * vdiffdw > 0.0) {
                    double auw = Math.abs(vdiffuw);
                    double adw = Math.abs(vdiffdw);
                    double wind = vdiffdw <= 0.0 ? -1.0 : 1.0;
                    limiter = wind * Math.min(Math.min(width * ((2.0 - sigma) * adw / width
                            + (1.0 + sigma) * auw / celldx[dif + h]) / 6.0, auw), adw);
                }
                double advecVel = vel1[id] + (1.0 - sigma) * limiter;
                momFlux[i] = advecVel * flux;
            }
        }
        for (int k = 1; k <= c.yMax + 1; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax + 1; i++) {
                vel1[i] = (vel1[i] * nodeMassPre[i] + momFlux[i - 1] - momFlux[i]) / nodeMassPost[i];
            }
        }
    }

    private static void remapY(Chunk c, double[] vel1) {
        int w = c.stride;
        int h = Chunk.HALO;
        double[] nodeFlux = c.work1;
        double[] nodeMassPost = c.work2;
        double[] nodeMassPre = c.work3;
        double[] momFlux = c.work4;
        double[] celldy = c.celldy;
        for (int k = 0; k <= c.yMax + 1; k++) {
            int row = c.idx(0, k);
            for (int j = 1; j <= c.xMax + 1; j++) {
                int i = row + j;
                double flux = nodeFlux[i];
                int upwind, donor, downwind, dif;
                if (flux < 0.0) {
                    upwind = k + 2;
                    donor = k + 1;
                    downwind = k;
                    dif = donor;
                } else {
                    upwind = k - 1;
                    donor = k;
                    downwind = k + 1;
                    dif = upwind;
                }
                int id = i + (donor - k) * w;
                double sigma = Math.abs(flux) / nodeMassPre[id];
                double width = celldy[k + h];
                double vdiffuw = vel1[id] - vel1[i + (upwind - k) * w];
                double vdiffdw = vel1[i + (downwind - k) * w] - vel1[id];
                double limiter = 0.0;
                if (vdiffuw * vdiffdw > 0.0) {
                    double auw = Math.abs(vdiffuw);
                    double adw = Math.abs(vdiffdw);
                    double wind = vdiffdw <= 0.0 ? -1.0 : 1.0;
                    limiter = wind * Math.min(Math.min(width * ((2.0 - sigma) * adw / width
                            + (1.0 + sigma) * auw / celldy[dif + h]) / 6.0, auw), adw);
                }
                double advecVel = vel1[id] + (1.0 - sigma) * limiter;
                momFlux[i] = advecVel * flux;
            }
        }
        for (int k = 1; k <= c.yMax + 1; k++) {
            int row = c.idx(0, k);
            for (int i = row + 1; i <= row + c.xMax + 1; i++) {
                vel1[i] = (vel1[i] * nodeMassPre[i] + momFlux[i - w] - momFlux[i]) / nodeMassPost[i];
            }
        }
    }
}

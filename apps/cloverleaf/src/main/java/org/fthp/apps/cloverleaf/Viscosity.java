package org.fthp.apps.cloverleaf;

/**
 * Artificial viscosity (the reference's viscosity kernel, Wilkins' method): non-zero only in cells
 * under compression, where it smooths shock fronts.
 */
final class Viscosity {

    private Viscosity() {}

    static void compute(Chunk c) {
        int w = c.stride;
        int h = Chunk.HALO;
        double[] xvel0 = c.xvel0;
        double[] yvel0 = c.yvel0;
        double[] pressure = c.pressure;
        double[] density0 = c.density0;
        double[] viscosity = c.viscosity;
        for (int k = 1; k <= c.yMax; k++) {
            double celldyK = c.celldy[k + h];
            double celldyK1 = c.celldy[k + 1 + h];
            int row = c.idx(0, k);
            for (int j = 1; j <= c.xMax; j++) {
                int i = row + j;
                double celldxJ = c.celldx[j + h];
                double ugrad = (xvel0[i + 1] + xvel0[i + 1 + w]) - (xvel0[i] + xvel0[i + w]);
                double vgrad = (yvel0[i + w] + yvel0[i + 1 + w]) - (yvel0[i] + yvel0[i + 1]);
                double div = celldxJ * ugrad + celldyK * vgrad;
                double strain2 = 0.5 * (xvel0[i + w] + xvel0[i + 1 + w] - xvel0[i] - xvel0[i + 1]) / celldyK
                        + 0.5 * (yvel0[i + 1] + yvel0[i + 1 + w] - yvel0[i] - yvel0[i + w]) / celldxJ;
                double pgradx = (pressure[i + 1] - pressure[i - 1]) / (celldxJ + c.celldx[j + 1 + h]);
                double pgrady = (pressure[i + w] - pressure[i - w]) / (celldyK + celldyK1);
                double pgradx2 = pgradx * pgradx;
                double pgrady2 = pgrady * pgrady;
                double limiter = ((0.5 * ugrad / celldxJ) * pgradx2 + (0.5 * vgrad / celldyK) * pgrady2
                        + strain2 * pgradx * pgrady) / Math.max(pgradx2 + pgrady2, 1.0e-16);
                if (limiter > 0.0 || div >= 0.0) {
                    viscosity[i] = 0.0;
                } else {
                    double dirx = pgradx < 0.0 ? -1.0 : 1.0;
                    pgradx = dirx * Math.max(1.0e-16, Math.abs(pgradx));
                    // The reference takes the sign of y from pgradx too; kept so results match it.
                    double diry = pgradx < 0.0 ? -1.0 : 1.0;
                    pgrady = diry * Math.max(1.0e-16, Math.abs(pgrady));
                    double pgrad = Math.sqrt(pgradx * pgradx + pgrady * pgrady);
                    double xgrad = Math.abs(celldxJ * pgrad / pgradx);
                    double ygrad = Math.abs(celldyK * pgrad / pgrady);
                    double grad = Math.min(xgrad, ygrad);
                    double grad2 = grad * grad;
                    viscosity[i] = 2.0 * density0[i] * grad2 * limiter * limiter;
                }
            }
        }
    }
}

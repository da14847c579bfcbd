package org.fthp.apps.hpcg;

/**
 * What a fine level needs to reach the next coarser one (MGData): injection map fine→coarse, the
 * coarse right-hand side and correction, and the fine-grid product A·x used for the residual.
 */
final class MgData {
    final int presmootherSteps = 1;
    final int postsmootherSteps = 1;
    final int[] f2c;
    final double[] rc;
    final double[] xc;
    final double[] axf;

    MgData(int[] f2c, int coarseRows, int coarseCols, int fineCols) {
        this.f2c = f2c;
        this.rc = new double[coarseRows];
        this.xc = new double[coarseCols];
        this.axf = new double[fineCols];
    }
}

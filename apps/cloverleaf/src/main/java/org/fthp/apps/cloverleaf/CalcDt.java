package org.fthp.apps.cloverleaf;

/**
 * The largest stable timestep of a chunk (the reference's calc_dt kernel): the minimum over cells of
 * the sound-speed (CFL), x- and y-velocity and divergence limits, each with its safety factor.
 */
final class CalcDt {

    /** The reference's g_small and g_big, written as default-precision literals there, hence the float. */
    static final double G_SMALL = (double) 1.0e-16f;
    static final double G_BIG = (double) 1.0e+21f;

    private CalcDt() {}

    static double compute(Chunk c, Deck deck) {
        int w = c.stride;
        int h = Chunk.HALO;
        double dtcSafe = deck.dtcSafe();
        double dtuSafe = deck.dtuSafe();
        double dtvSafe = deck.dtvSafe();
        double dtdivSafe = deck.dtdivSafe();
        double[] xarea = c.xarea;
        double[] yarea = c.yarea;
        double[] volume = c.volume;
        double[] xvel0 = c.xvel0;
        double[] yvel0 = c.yvel0;
        double[] soundspeed = c.soundspeed;
        double[] viscosity = c.viscosity;
        double[] density0 = c.density0;
        double dtMinVal = G_BIG;
        for (int k = 1; k <= c.yMax; k++) {
            double dsy = c.celldy[k + h];
            int row = c.idx(0, k);
            for (int j = 1; j <= c.xMax; j++) {
                int i = row + j;
                double dsx = c.celldx[j + h];
                double ss = soundspeed[i];
                double cc = ss * ss;
                cc = cc + 2.0 * viscosity[i] / density0[i];
                cc = Math.max(Math.sqrt(cc), G_SMALL);
                double dtct = dtcSafe * Math.min(dsx, dsy) / cc;

                double div = 0.0;
                double dv1 = (xvel0[i] + xvel0[i + w]) * xarea[i];
                double dv2 = (xvel0[i + 1] + xvel0[i + 1 + w]) * xarea[i + 1];
                div = div + dv2 - dv1;
                double vol = volume[i];
                double dtut = dtuSafe * 2.0 * vol / Math.max(Math.max(Math.abs(dv1), Math.abs(dv2)), G_SMALL * vol);

                dv1 = (yvel0[i] + yvel0[i + 1]) * yarea[i];
                dv2 = (yvel0[i + w] + yvel0[i + 1 + w]) * yarea[i + w];
                div = div + dv2 - dv1;
                double dtvt = dtvSafe * 2.0 * vol / Math.max(Math.max(Math.abs(dv1), Math.abs(dv2)), G_SMALL * vol);

                div = div / (2.0 * vol);
                double dtdivt = div < -G_SMALL ? dtdivSafe * (-1.0 / div) : G_BIG;

                double dtMin = Math.min(Math.min(dtct, dtut), Math.min(dtvt, dtdivt));
                if (dtMin < dtMinVal) {
                    dtMinVal = dtMin;
                }
            }
        }
        return dtMinVal;
    }
}

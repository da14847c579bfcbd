package org.fthp.apps.hpcg;

/**
 * The linear system and its multigrid hierarchy, built as GenerateProblem_ref, SetupHalo_ref and
 * GenerateCoarseProblem build them: 26 on the diagonal and -1 for every existing neighbour in the
 * 27-point stencil, b chosen so the exact solution is all ones, x = 0.
 */
final class Problem {
    /** Levels including the finest: three coarsenings, as the reference. */
    static final int MG_LEVELS = 4;

    final SparseMatrix a;
    final double[] b;
    final double[] x;
    final double[] xexact;

    private Problem(SparseMatrix a, double[] b, double[] x, double[] xexact) {
        this.a = a;
        this.b = b;
        this.x = x;
        this.xexact = xexact;
    }

    /** Builds the fine system, its halo and {@link #MG_LEVELS}-1 coarse levels. */
    static Problem build(Geometry geom, Parallel par) {
        double[][] vectors = new double[3][];
        SparseMatrix a = generate(geom, par, vectors);
        a.halo = Halo.setup(a, par.comm());
        SparseMatrix level = a;
        for (int l = 1; l < MG_LEVELS; l++) {
            generateCoarse(level, par);
            level = level.coarse;
        }
        return new Problem(a, vectors[0], vectors[1], vectors[2]);
    }

    /**
     * Rows in natural order (x fastest); each row's entries in stencil order sz, sy, sx = -1..1,
     * skipping points outside the global grid.
     *
     * @param vectors if non-null, receives b, x and xexact
     */
    static SparseMatrix generate(Geometry g, Parallel par, double[][] vectors) {
        int nx = g.nx, ny = g.ny, nz = g.nz;
        long gnx = g.gnx, gny = g.gny, gnz = g.gnz;
        int nrow = nx * ny * nz;
        final int w = SparseMatrix.STENCIL;
        byte[] nnzInRow = new byte[nrow];
        long[] gcols = new long[nrow * w];
        double[] values = new double[nrow * w];
        double[] diag = new double[nrow];
        int[] diagPos = new int[nrow];
        long[] l2g = new long[nrow];
        double[] b = null, x = null, xexact = null;
        if (vectors != null) {
            b = vectors[0] = new double[nrow];
            x = vectors[1] = new double[nrow];
            xexact = vectors[2] = new double[nrow];
        }
        int localNonzeros = 0;
        for (int iz = 0; iz < nz; iz++) {
            long giz = g.giz0 + iz;
            for (int iy = 0; iy < ny; iy++) {
                long giy = g.giy0 + iy;
                for (int ix = 0; ix < nx; ix++) {
                    long gix = g.gix0 + ix;
                    int row = iz * nx * ny + iy * nx + ix;
                    long grow = giz * gnx * gny + giy * gnx + gix;
                    l2g[row] = grow;
                    int k = row * w;
                    int count = 0;
                    for (int sz = -1; sz <= 1; sz++) {
                        if (giz + sz < 0 || giz + sz >= gnz) {
                            continue;
                        }
                        for (int sy = -1; sy <= 1; sy++) {
                            if (giy + sy < 0 || giy + sy >= gny) {
                                continue;
                            }
                            for (int sx = -1; sx <= 1; sx++) {
                                if (gix + sx < 0 || gix + sx >= gnx) {
                                    continue;
                                }
                                long col = grow + sz * gnx * gny + sy * gnx + sx;
                                if (col == grow) {
                                    diagPos[row] = k + count;
                                    values[k + count] = 26.0;
                                    diag[row] = 26.0;
                                } else {
                                    values[k + count] = -1.0;
                                }
                                gcols[k + count] = col;
                                count++;
                            }
                        }
                    }
                    nnzInRow[row] = (byte) count;
                    localNonzeros += count;
                    if (b != null) {
                        b[row] = 26.0 - (count - 1);
                        x[row] = 0.0;
                        xexact[row] = 1.0;
                    }
                }
            }
        }
        SparseMatrix a = new SparseMatrix(g, nrow, localNonzeros, nnzInRow, gcols, values, diag, diagPos, l2g);
        a.totalRows = gnx * gny * gnz;
        a.totalNonzeros = par.sum((long) localNonzeros);
        return a;
    }

    /** Next level: half the points each way, injection at the even fine points (GenerateCoarseProblem). */
    static void generateCoarse(SparseMatrix af, Parallel par) {
        Geometry gf = af.geom;
        if (gf.nx % 2 != 0 || gf.ny % 2 != 0 || gf.nz % 2 != 0) {
            throw new IllegalStateException("cannot coarsen an odd local grid " + gf.nx + "x" + gf.ny + "x" + gf.nz);
        }
        Geometry gc = gf.coarser();
        int nxc = gc.nx, nyc = gc.ny, nzc = gc.nz;
        int[] f2c = new int[nxc * nyc * nzc];
        for (int izc = 0; izc < nzc; izc++) {
            int izf = 2 * izc;
            for (int iyc = 0; iyc < nyc; iyc++) {
                int iyf = 2 * iyc;
                for (int ixc = 0; ixc < nxc; ixc++) {
                    int ixf = 2 * ixc;
                    f2c[izc * nxc * nyc + iyc * nxc + ixc] = izf * gf.nx * gf.ny + iyf * gf.nx + ixf;
                }
            }
        }
        SparseMatrix ac = generate(gc, par, null);
        ac.halo = Halo.setup(ac, par.comm());
        af.coarse = ac;
        af.mg = new MgData(f2c, ac.nrow, ac.ncol, af.ncol);
    }
}

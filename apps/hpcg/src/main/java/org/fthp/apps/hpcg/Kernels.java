package org.fthp.apps.hpcg;

/**
 * The benchmark's kernels on flat arrays, each doing the reference kernel's arithmetic in the
 * reference's order (so results are bit-for-bit those of the C++ _ref kernels on the same data):
 * a row's terms are summed in stencil order, left to right, never reassociated.
 */
final class Kernels {

    private Kernels() {}

    /** y = A x (ComputeSPMV_ref); fetches x's halo first. x has ncol entries, y at least nrow. */
    static void spmv(SparseMatrix a, double[] x, double[] y) {
        a.halo.exchange(x);
        spmvLocal(a, x, y);
    }

    /** The row loop of {@link #spmv} alone, for measuring the kernel's memory bandwidth. */
    static void spmvLocal(SparseMatrix a, double[] x, double[] y) {
        final int[] cols = a.cols;
        final double[] vals = a.values;
        final byte[] nnz = a.nnzInRow;
        final int n = a.nrow;
        for (int i = 0, base = 0; i < n; i++, base += SparseMatrix.STENCIL) {
            double sum = 0.0;
            final int end = base + nnz[i];
            for (int k = base; k < end; k++) {
                sum += vals[k] * x[cols[k]];
            }
            y[i] = sum;
        }
    }

    /**
     * One symmetric Gauss–Seidel sweep (ComputeSYMGS_ref): forward then backward over the local
     * rows, halo values fixed at what the exchange brought. x is updated in place.
     */
    static void symgs(SparseMatrix a, double[] r, double[] x) {
        a.halo.exchange(x);
        symgsLocal(a, r, x);
    }

    static void symgsLocal(SparseMatrix a, double[] r, double[] x) {
        final int[] cols = a.cols;
        final double[] vals = a.values;
        final double[] diag = a.diag;
        final byte[] nnz = a.nnzInRow;
        final int n = a.nrow;
        for (int i = 0, base = 0; i < n; i++, base += SparseMatrix.STENCIL) {
            final double d = diag[i];
            double sum = r[i];
            final int end = base + nnz[i];
            for (int k = base; k < end; k++) {
                sum -= vals[k] * x[cols[k]];
            }
            sum += x[i] * d;   // the loop subtracted the diagonal term too: add it back
            x[i] = sum / d;
        }
        for (int i = n - 1, base = (n - 1) * SparseMatrix.STENCIL; i >= 0; i--, base -= SparseMatrix.STENCIL) {
            final double d = diag[i];
            double sum = r[i];
            final int end = base + nnz[i];
            for (int k = base; k < end; k++) {
                sum -= vals[k] * x[cols[k]];
            }
            sum += x[i] * d;
            x[i] = sum / d;
        }
    }

    /** w = alpha x + beta y over n entries, with the reference's shortcuts for alpha or beta = 1. */
    static void waxpby(int n, double alpha, double[] x, double beta, double[] y, double[] w) {
        if (alpha == 1.0) {
            for (int i = 0; i < n; i++) {
                w[i] = x[i] + beta * y[i];
            }
        } else if (beta == 1.0) {
            for (int i = 0; i < n; i++) {
                w[i] = alpha * x[i] + y[i];
            }
        } else {
            for (int i = 0; i < n; i++) {
                w[i] = alpha * x[i] + beta * y[i];
            }
        }
    }

    /** This process's part of x·y, summed in index order. */
    static double dotLocal(int n, double[] x, double[] y) {
        double s = 0.0;
        for (int i = 0; i < n; i++) {
            s += x[i] * y[i];
        }
        return s;
    }

    /** Coarse right-hand side: the fine residual rf - A xf, injected (ComputeRestriction_ref). */
    static void restrict(SparseMatrix a, double[] rf) {
        MgData mg = a.mg;
        int[] f2c = mg.f2c;
        double[] axf = mg.axf;
        double[] rc = mg.rc;
        for (int i = 0; i < rc.length; i++) {
            rc[i] = rf[f2c[i]] - axf[f2c[i]];
        }
    }

    /** Adds the coarse correction back at the injected points (ComputeProlongation_ref: xf -= xc). */
    static void prolong(SparseMatrix a, double[] xf) {
        MgData mg = a.mg;
        int[] f2c = mg.f2c;
        double[] xc = mg.xc;
        int nc = mg.rc.length;
        for (int i = 0; i < nc; i++) {
            xf[f2c[i]] -= xc[i];
        }
    }

    /**
     * One V-cycle (ComputeMG_ref): x = 0, pre-smooth, residual, restrict, recurse, prolong,
     * post-smooth; a single sweep on the coarsest level.
     */
    static void mg(SparseMatrix a, double[] r, double[] x) {
        java.util.Arrays.fill(x, 0, a.ncol, 0.0);
        if (a.mg != null) {
            for (int i = 0; i < a.mg.presmootherSteps; i++) {
                symgs(a, r, x);
            }
            spmv(a, x, a.mg.axf);
            restrict(a, r);
            mg(a.coarse, a.mg.rc, a.mg.xc);
            prolong(a, x);
            for (int i = 0; i < a.mg.postsmootherSteps; i++) {
                symgs(a, r, x);
            }
        } else {
            symgs(a, r, x);
        }
    }
}

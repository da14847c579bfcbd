package org.fthp.apps.hpcg;

/**
 * Preconditioned conjugate gradients, CG_ref / CG of HPCG 3.1: the same operations in the same
 * order, and the same timers. The reference's "optimized" CG calls the reference kernels, so one
 * implementation serves both phases.
 */
final class Cg {
    /** Indices into the timing array, as main.cpp and ReportResults use them. */
    static final int T_TOTAL = 0, T_DOT = 1, T_WAXPBY = 2, T_SPMV = 3, T_ALLREDUCE = 4, T_MG = 5,
            T_OPTIMIZE = 7, T_REF_SPMV_MG = 8, T_SETUP = 9;

    /** Work vectors (CGData): p and z carry halo entries. */
    static final class Data {
        final double[] r;
        final double[] z;
        final double[] p;
        final double[] ap;

        Data(SparseMatrix a) {
            r = new double[a.nrow];
            z = new double[a.ncol];
            p = new double[a.ncol];
            ap = new double[a.nrow];
        }
    }

    /** What one CG call reports back. */
    static final class Outcome {
        int niters;
        double normr;
        double normr0;

        double scaledResidual() {
            return normr / normr0;
        }
    }

    private final SparseMatrix a;
    private final Data data;
    private final Parallel par;
    private final double[] allreduceTime = new double[1];

    Cg(SparseMatrix a, Data data, Parallel par) {
        this.a = a;
        this.data = data;
        this.par = par;
    }

    /** Dot product over all ranks; the allreduce's time goes to {@code allreduceTime}. */
    double dot(double[] x, double[] y) {
        double local = Kernels.dotLocal(a.nrow, x, y);
        if (par.isSerial()) {
            return local;
        }
        double t0 = par.now();
        double global = par.sum(local);
        allreduceTime[0] += par.now() - t0;
        return global;
    }

    /**
     * Iterates from x until maxIter iterations or ||r||/||r0|| <= tolerance.
     *
     * @param times accumulates the phase timers (see the T_ constants)
     */
    Outcome solve(double[] b, double[] x, int maxIter, double tolerance, double[] times, boolean precondition,
                  Outcome out) {
        double tBegin = par.now();
        int nrow = a.nrow;
        double[] r = data.r, z = data.z, p = data.p, ap = data.ap;
        double t0;
        double t1 = 0, t2 = 0, t3 = 0, t5 = 0;
        allreduceTime[0] = 0.0;
        double rtz = 0.0, oldrtz, alpha, beta, pAp;

        System.arraycopy(x, 0, p, 0, nrow);   // p has halo room; x does not
        t0 = par.now(); Kernels.spmv(a, p, ap); t3 += par.now() - t0;
        t0 = par.now(); Kernels.waxpby(nrow, 1.0, b, -1.0, ap, r); t2 += par.now() - t0;
        t0 = par.now(); double normr = Math.sqrt(dot(r, r)); t1 += par.now() - t0;
        double normr0 = normr;
        int niters = 0;

        for (int k = 1; k <= maxIter && normr / normr0 > tolerance; k++) {
            t0 = par.now();
            if (precondition) {
                Kernels.mg(a, r, z);
            } else {
                Kernels.waxpby(nrow, 1.0, r, 0.0, r, z);
            }
            t5 += par.now() - t0;
            if (k == 1) {
                t0 = par.now(); Kernels.waxpby(nrow, 1.0, z, 0.0, z, p); t2 += par.now() - t0;
                t0 = par.now(); rtz = dot(r, z); t1 += par.now() - t0;
            } else {
                oldrtz = rtz;
                t0 = par.now(); rtz = dot(r, z); t1 += par.now() - t0;
                beta = rtz / oldrtz;
                t0 = par.now(); Kernels.waxpby(nrow, 1.0, z, beta, p, p); t2 += par.now() - t0;
            }
            t0 = par.now(); Kernels.spmv(a, p, ap); t3 += par.now() - t0;
            t0 = par.now(); pAp = dot(p, ap); t1 += par.now() - t0;
            alpha = rtz / pAp;
            t0 = par.now();
            Kernels.waxpby(nrow, 1.0, x, alpha, p, x);
            Kernels.waxpby(nrow, 1.0, r, -alpha, ap, r);
            t2 += par.now() - t0;
            t0 = par.now(); normr = Math.sqrt(dot(r, r)); t1 += par.now() - t0;
            niters = k;
        }
        times[T_DOT] += t1;
        times[T_WAXPBY] += t2;
        times[T_SPMV] += t3;
        times[T_ALLREDUCE] += allreduceTime[0];
        times[T_MG] += t5;
        times[T_TOTAL] += par.now() - tBegin;
        out.niters = niters;
        out.normr = normr;
        out.normr0 = normr0;
        return out;
    }
}

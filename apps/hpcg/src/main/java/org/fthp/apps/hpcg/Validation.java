package org.fthp.apps.hpcg;

import java.util.Arrays;
import java.util.function.Consumer;

/** The reference's correctness tests: TestCG (spectral), TestSymmetry and TestNorms. */
final class Validation {

    private Validation() {}

    /** TestCGData. */
    static final class CgTest {
        int countPass;
        int countFail;
        final int expectedNitersNoPrec = 12;
        final int expectedNitersPrec = 2;
        int nitersMaxNoPrec;
        int nitersMaxPrec;
        double normr;
    }

    /** TestSymmetryData. */
    static final class SymmetryTest {
        double depsymSpmv;
        double depsymMg;
        int countFail;
    }

    /** TestNormsData. */
    static final class NormsTest {
        double[] values;
        double mean;
        double variance;
        boolean pass;
    }

    /**
     * Spectral test: with the diagonal scaled up by 10^6 (more for the first nine global rows)
     * CG must converge to 1e-12 in at most 12 iterations unpreconditioned and 2 preconditioned,
     * whatever the problem size. Matrix diagonal and b are restored afterwards.
     */
    static CgTest testCg(SparseMatrix a, Cg cg, double[] b, double[] x, Consumer<String> log) {
        CgTest t = new CgTest();
        double[] times = new double[8];
        double[] origDiag = new double[a.nrow];
        a.copyDiagonal(origDiag);
        double[] exaggerated = origDiag.clone();
        double[] origB = Arrays.copyOf(b, a.nrow);
        for (int i = 0; i < a.nrow; i++) {
            long g = a.localToGlobal[i];
            double scale = g < 9 ? (g + 2) * 1.0e6 : 1.0e6;
            exaggerated[i] *= scale;
            b[i] *= scale;
        }
        a.replaceDiagonal(exaggerated);
        int maxIters = 50;
        int calls = 2;
        double tolerance = 1.0e-12;
        Cg.Outcome out = new Cg.Outcome();
        for (int k = 0; k < 2; k++) {
            int expected = k == 0 ? t.expectedNitersNoPrec : t.expectedNitersPrec;
            for (int i = 0; i < calls; i++) {
                Arrays.fill(x, 0.0);
                cg.solve(b, x, maxIters, tolerance, times, k == 1, out);
                if (out.niters <= expected) {
                    t.countPass++;
                } else {
                    t.countFail++;
                }
                if (k == 0) {
                    t.nitersMaxNoPrec = Math.max(t.nitersMaxNoPrec, out.niters);
                } else {
                    t.nitersMaxPrec = Math.max(t.nitersMaxPrec, out.niters);
                }
                log.accept("Call [" + i + "] Number of Iterations [" + out.niters + "] Scaled Residual ["
                        + OutputFile.cppDouble(out.scaledResidual()) + "]");
                if (out.niters > expected) {
                    log.accept(" Expected " + expected + " iterations.  Performed " + out.niters + ".");
                }
            }
        }
        a.replaceDiagonal(origDiag);
        System.arraycopy(origB, 0, b, 0, a.nrow);
        t.normr = out.normr;
        return t;
    }

    /**
     * Symmetry of SpMV and of the MG preconditioner: |x'Ay - y'Ax| and |x'M⁻¹y - y'M⁻¹x| scaled
     * by (2‖x‖²‖A‖‖y‖²) ε must stay below 1. Then A·xexact must reproduce b.
     */
    static SymmetryTest testSymmetry(SparseMatrix a, Cg cg, double[] b, double[] xexact, CRandom rand,
                                     Parallel par, Consumer<String> log) {
        SymmetryTest t = new SymmetryTest();
        int nrow = a.nrow;
        double[] xn = new double[a.ncol];
        double[] yn = new double[a.ncol];
        double[] zn = new double[a.ncol];
        rand.fill(xn);
        rand.fill(yn);
        double aNorm = 2 * 26.0;
        final double eps = Math.ulp(1.0);

        double yNorm2 = cg.dot(yn, yn);
        Kernels.spmv(a, yn, zn);
        double xtAy = cg.dot(xn, zn);
        double xNorm2 = cg.dot(xn, xn);
        Kernels.spmv(a, xn, zn);
        double ytAx = cg.dot(yn, zn);
        double scale = (xNorm2 * aNorm * yNorm2 + yNorm2 * aNorm * xNorm2) * eps;
        t.depsymSpmv = Math.abs(xtAy - ytAx) / scale;
        if (t.depsymSpmv > 1.0) {
            t.countFail++;
        }
        log.accept("Departure from symmetry (scaled) for SpMV abs(x'*A*y - y'*A*x) = " + OutputFile.cppDouble(t.depsymSpmv));

        Kernels.mg(a, yn, zn);
        double xtMinvy = cg.dot(xn, zn);
        Kernels.mg(a, xn, zn);
        double ytMinvx = cg.dot(yn, zn);
        t.depsymMg = Math.abs(xtMinvy - ytMinvx) / scale;
        if (t.depsymMg > 1.0) {
            t.countFail++;
        }
        log.accept("Departure from symmetry (scaled) for MG abs(x'*Minv*y - y'*Minv*x) = " + OutputFile.cppDouble(t.depsymMg));

        System.arraycopy(xexact, 0, xn, 0, nrow);
        for (int i = 0; i < 2; i++) {
            Kernels.spmv(a, xn, zn);
            double local = 0.0;
            for (int j = 0; j < nrow; j++) {
                local = Math.max(local, Math.abs(b[j] - zn[j]));
            }
            double residual = par.max(local);
            log.accept("SpMV call [" + i + "] Residual [" + OutputFile.cppDouble(residual) + "]");
        }
        return t;
    }

    /** Reproducibility: the scaled residuals of all timed sets must agree (variance < 1e-6). */
    static NormsTest testNorms(double[] values) {
        NormsTest t = new NormsTest();
        t.values = values;
        double mean = 0.0;
        for (double v : values) {
            mean += v;
        }
        t.mean = mean / values.length;
        double sumdiff = 0.0;
        for (double v : values) {
            sumdiff += (v - t.mean) * (v - t.mean);
        }
        t.variance = sumdiff / values.length;
        t.pass = t.variance < 1.0e-6;
        return t;
    }
}

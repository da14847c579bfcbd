package org.fthp.apps.hpcg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The problem and kernels on one process, no MPI. */
class SerialKernelsTest {

    private static Problem problem(int n) {
        return Problem.build(Geometry.create(1, 0, n, n, n, 1, 1, 1), Parallel.serial());
    }

    @Test
    void stencilMatrixAndHierarchy() {
        Problem p = problem(16);
        SparseMatrix a = p.a;
        assertEquals(4096, a.totalRows);
        assertEquals(46L * 46 * 46, a.totalNonzeros, "(3n-2)^3 nonzeros for a 27-point stencil on n^3");
        assertEquals(a.nrow, a.ncol, "no halo on one process");
        assertEquals(4, a.levels());
        assertEquals(512, a.coarse.totalRows);
        assertEquals(64, a.coarse.coarse.totalRows);
        assertEquals(8, a.coarse.coarse.coarse.totalRows);
        for (int i = 0; i < a.nrow; i++) {
            assertEquals(26.0, a.values[a.diagPos[i]]);
            assertEquals(a.localToGlobal[i], a.cols[a.diagPos[i]], "local == global on one process");
            int base = i * SparseMatrix.STENCIL;
            for (int k = base + 1; k < base + a.nnzInRow[i]; k++) {
                assertTrue(a.cols[k - 1] < a.cols[k], "row " + i + " in stencil (increasing column) order");
            }
        }
    }

    @Test
    void exactSolutionReproducesTheRightHandSide() {
        Problem p = problem(16);
        double[] y = new double[p.a.nrow];
        Kernels.spmv(p.a, p.xexact, y);
        assertTrue(Arrays.equals(p.b, y), "A * ones == b exactly");
    }

    @Test
    void waxpbyShortcuts() {
        double[] x = {1, 2, 3};
        double[] y = {10, 20, 30};
        double[] w = new double[3];
        Kernels.waxpby(3, 1.0, x, 2.0, y, w);
        assertEquals(42.0, w[1]);
        Kernels.waxpby(3, 2.0, x, 1.0, y, w);
        assertEquals(24.0, w[1]);
        Kernels.waxpby(3, 2.0, x, 3.0, y, w);
        assertEquals(64.0, w[1]);
        assertEquals(14.0, Kernels.dotLocal(3, x, x));
    }

    @Test
    void symmetricGaussSeidelReducesTheResidual() {
        Problem p = problem(16);
        SparseMatrix a = p.a;
        double[] x = new double[a.ncol];
        double[] ax = new double[a.nrow];
        double before = Double.MAX_VALUE;
        for (int sweep = 0; sweep < 5; sweep++) {
            Kernels.symgs(a, p.b, x);
            Kernels.spmv(a, x, ax);
            double r = 0;
            for (int i = 0; i < a.nrow; i++) {
                r += (p.b[i] - ax[i]) * (p.b[i] - ax[i]);
            }
            assertTrue(r < before, "sweep " + sweep);
            before = r;
        }
    }

    /**
     * Golden values: the C++ reference (HPCG 3.1 kernels built with mpicxx -O3, no -ffast-math)
     * prints exactly these for 16^3 on one process.
     */
    @Test
    void cgMatchesTheCppReferenceBitForBit() {
        Problem p = problem(16);
        Parallel par = Parallel.serial();
        Cg cg = new Cg(p.a, new Cg.Data(p.a), par);
        double[] times = new double[10];
        Cg.Outcome out = cg.solve(p.b, p.x, 50, 0.0, times, true, new Cg.Outcome());
        assertEquals(50, out.niters);
        assertEquals(3.7604507470801152e-39, out.scaledResidual());

        Validation.CgTest t = Validation.testCg(p.a, cg, p.b, p.x, s -> { });
        assertEquals(0, t.countFail);
        assertEquals(11, t.nitersMaxNoPrec);
        assertEquals(1, t.nitersMaxPrec);

        CRandom rand = new CRandom();
        rand.fill(new double[p.a.ncol]);   // main's x_overlap draws first
        Validation.SymmetryTest s = Validation.testSymmetry(p.a, cg, p.b, p.xexact, rand, par, x -> { });
        assertEquals(0, s.countFail);
        assertEquals(6.2963163500641859e-05, s.depsymSpmv, 1e-18);
        assertEquals(1.2024215251858686e-06, s.depsymMg, 1e-20);
    }

    @Test
    void glibcRand() {
        CRandom r = new CRandom();
        assertEquals(1804289383, r.next());
        assertEquals(846930886, r.next());
        assertEquals(1681692777, r.next());
        assertEquals(1714636915, r.next());
        assertEquals(1957747793, r.next());
        long sum = 0;
        for (int i = 0; i < 1_000_000; i++) {
            sum += r.next();
        }
        assertEquals(1073752234616439L, sum, "next million values, summed (from a C program)");
    }

    @Test
    void normsTest() {
        Validation.NormsTest t = Validation.testNorms(new double[] {1e-7, 1e-7, 1e-7});
        assertTrue(t.pass);
        assertEquals(0.0, t.variance);
        assertTrue(!Validation.testNorms(new double[] {0.0, 1.0}).pass);
    }

    @Test
    void cppNumberFormat() {
        assertEquals("0", OutputFile.cppDouble(0.0));
        assertEquals("1800", OutputFile.cppDouble(1800));
        assertEquals("0.0625", OutputFile.cppDouble(0.0625));
        assertEquals("715.092", OutputFile.cppDouble(715.0921));
        assertEquals("1e-05", OutputFile.cppDouble(1e-5));
        assertEquals("6.29632e-05", OutputFile.cppDouble(6.2963163500641859e-05));
        assertEquals("1.23457e+08", OutputFile.cppDouble(123456789));
        assertEquals("123457", OutputFile.cppDouble(123456.7));
        assertEquals("3.76045e-39", OutputFile.cppDouble(3.7604507470801152e-39));
    }

    @Test
    void flopModelCountsTheReferenceWay() {
        Problem p = problem(16);
        Report.Model m = Report.model(p.a, 1, 50, 50);
        double nrow = 4096, nnz = 97336;
        assertEquals((3 * 50 + 1) * 2 * nrow, m.ddot());
        assertEquals((50 + 1) * 2 * nnz, m.spmv());
        double mg = 0;
        SparseMatrix a = p.a;
        for (int l = 0; l < 3; l++) {
            mg += 50 * (4.0 + 2.0 + 4.0) * a.totalNonzeros;
            a = a.coarse;
        }
        mg += 50 * 4.0 * a.totalNonzeros;
        assertEquals(mg, m.mg());
        assertEquals(m.total(), m.totalWithOverhead(), "same iteration count: no convergence overhead");
    }
}

package org.fthp.apps.hpcg;

/**
 * ReportResults of HPCG 3.1: the floating-point operation model, the memory traffic model, the
 * memory use model, the validity verdict and the GFLOP/s rating, written in the reference's
 * {@link OutputFile} layout. Counts come from the algorithm (what CG and the V-cycle do per
 * iteration on the global problem), not from measuring this code.
 */
final class Report {
    static final String VERSION = "3.1";
    static final String RELEASE_DATE = "March 28, 2019";
    /** An official run must last at least this long (seconds). */
    static final double MIN_OFFICIAL_TIME = 1800;
    private static final double DOUBLE = 8, INT = 4, LONG = 8, POINTER = 8;
    /** sizeof of the reference's C++ structs on x86-64 (Geometry, SparseMatrix, Vector, MGData). */
    private static final double SIZEOF_GEOMETRY = 128, SIZEOF_MATRIX = 256, SIZEOF_VECTOR = 24, SIZEOF_MGDATA = 48;

    /** Operation and traffic totals of a run (global, all sets). */
    record Model(double ddot, double waxpby, double spmv, double mg, double total, double totalWithOverhead,
                 double reads, double writes, double refReads, double refWrites) {}

    record Result(String text, boolean valid, double gflops, double gflops24, Model model) {}

    private Report() {}

    static Model model(SparseMatrix a, int numberOfCgSets, int refMaxIters, int optMaxIters) {
        double sets = numberOfCgSets;
        double fniters = sets * optMaxIters;
        double fnrow = a.totalRows;
        double fnnz = a.totalNonzeros;
        // three dot products and three WAXPBYs per iteration, one more of each in the CG preamble
        double ddot = (3.0 * fniters + sets) * 2.0 * fnrow;
        double waxpby = (3.0 * fniters + sets) * 2.0 * fnrow;
        double spmv = (fniters + sets) * 2.0 * fnnz;
        double mg = 0.0;
        SparseMatrix af = a;
        while (af.mg != null) {
            double nnz = af.totalNonzeros;
            mg += af.mg.presmootherSteps * fniters * 4.0 * nnz;   // a symmetric sweep: two passes of 2 nnz
            mg += fniters * 2.0 * nnz;                             // fine residual SpMV
            mg += af.mg.postsmootherSteps * fniters * 4.0 * nnz;
            af = af.coarse;
        }
        mg += fniters * 4.0 * af.totalNonzeros;                    // one sweep on the coarsest level
        double total = ddot + waxpby + spmv + mg;
        double ref = total * ((double) refMaxIters) / optMaxIters;

        double rDdot = (3.0 * fniters + sets) * 2.0 * fnrow * DOUBLE;
        double wDdot = (3.0 * fniters + sets) * DOUBLE;
        double rWax = (3.0 * fniters + sets) * 2.0 * fnrow * DOUBLE;
        double wWax = (3.0 * fniters + sets) * fnrow * DOUBLE;
        double rSpmv = (fniters + sets) * (fnnz * (DOUBLE + INT) + fnrow * DOUBLE);
        double wSpmv = (fniters + sets) * fnrow * DOUBLE;
        double rMg = 0.0, wMg = 0.0;
        af = a;
        while (af.mg != null) {
            double nnz = af.totalNonzeros;
            double rows = af.totalRows;
            rMg += af.mg.presmootherSteps * fniters * (2.0 * nnz * (DOUBLE + INT) + rows * DOUBLE);
            wMg += af.mg.presmootherSteps * fniters * rows * DOUBLE;
            rMg += fniters * (nnz * (DOUBLE + INT) + rows * DOUBLE);
            wMg += fniters * nnz * DOUBLE;          // sic: the reference counts nnz writes here
            rMg += af.mg.postsmootherSteps * fniters * (2.0 * nnz * (DOUBLE + INT) + rows * DOUBLE);
            wMg += af.mg.postsmootherSteps * fniters * nnz * DOUBLE;   // sic, as the reference
            af = af.coarse;
        }
        rMg += fniters * (2.0 * af.totalNonzeros * (DOUBLE + INT) + af.totalRows * DOUBLE);
        wMg += fniters * af.totalRows * DOUBLE;
        double reads = rDdot + rWax + rSpmv + rMg;
        double writes = wDdot + wWax + wSpmv + wMg;
        double scale = ((double) refMaxIters) / optMaxIters;
        return new Model(ddot, waxpby, spmv, mg, total, ref, reads, writes, reads * scale, writes * scale);
    }

    /**
     * Builds the report. Collective (the allreduce timing spread is reduced over all ranks); only
     * rank 0's result carries text.
     */
    static Result build(SparseMatrix a, Parallel par, int numberOfCgSets, int refMaxIters, int optMaxIters,
                        double[] times, Validation.CgTest cgTest, Validation.SymmetryTest symTest,
                        Validation.NormsTest normsTest, boolean globalFailure, boolean quickPath) {
        double t4 = times[Cg.T_ALLREDUCE];
        double t4min = par.min(t4);
        double t4max = par.max(t4);
        double t4avg = par.sum(t4) / par.size;
        Model m = model(a, numberOfCgSets, refMaxIters, optMaxIters);
        double sets = numberOfCgSets;
        Geometry g = a.geom;

        // memory use, as the reference estimates it from rank 0's sizes
        double nnzPerRow = 27.0;
        double size = g.size;
        double fnrow = a.totalRows;
        double bytes = SIZEOF_GEOMETRY + DOUBLE * sets;
        bytes += fnrow * 1 + fnrow * POINTER * 4;
        bytes += fnrow * nnzPerRow * (INT + DOUBLE + LONG);
        bytes += fnrow * 3 * DOUBLE;
        double fncol = ((double) a.ncol) * size;
        bytes += fnrow * 2 * DOUBLE + fncol * 2 * DOUBLE;
        int levels = a.levels();
        double[] perLevel = new double[levels];
        perLevel[0] = bytes;
        double optimizedBytes = 0.0;
        bytes += optimizedBytes;
        SparseMatrix af = a.coarse;
        for (int i = 1; i < levels; i++) {
            double rows = af.totalRows;
            double cols = ((double) af.ncol) * size;
            double b = rows * INT + rows * DOUBLE + 2.0 * cols * DOUBLE
                    + SIZEOF_GEOMETRY + SIZEOF_MATRIX + 3 * SIZEOF_VECTOR + SIZEOF_MGDATA;
            b += rows * 1 + rows * POINTER * 4 + rows * nnzPerRow * (INT + DOUBLE + LONG);
            if (!par.isSerial()) {
                b += DOUBLE * af.halo.totalToBeSent + INT * af.halo.totalToBeSent;
                b += INT * af.halo.neighbors.length + INT * af.halo.neighbors.length;
            }
            perLevel[i] = b;
            bytes += b;
            af = af.coarse;
        }

        double totalGflops = m.totalWithOverhead()
                / (times[Cg.T_TOTAL] + sets * (times[Cg.T_OPTIMIZE] / 10.0 + times[Cg.T_SETUP] / 10.0)) / 1.0e9;
        double totalGflops24 = m.totalWithOverhead() / (times[Cg.T_TOTAL] + sets * times[Cg.T_OPTIMIZE] / 10.0) / 1.0e9;
        boolean valid = cgTest.countFail == 0 && symTest.countFail == 0 && normsTest.pass && !globalFailure;
        if (par.rank != 0) {
            return new Result(null, valid, totalGflops, totalGflops24, m);
        }

        OutputFile doc = new OutputFile("HPCG-Benchmark", VERSION);
        doc.add("Release date", RELEASE_DATE);
        OutputFile ms = doc.add("Machine Summary", "");
        ms.add("Distributed Processes", g.size);
        ms.add("Threads per processes", 1);
        OutputFile gd = doc.add("Global Problem Dimensions", "");
        gd.add("Global nx", g.gnx);
        gd.add("Global ny", g.gny);
        gd.add("Global nz", g.gnz);
        OutputFile pd = doc.add("Processor Dimensions", "");
        pd.add("npx", g.npx);
        pd.add("npy", g.npy);
        pd.add("npz", g.npz);
        OutputFile ld = doc.add("Local Domain Dimensions", "");
        ld.add("nx", g.nx);
        ld.add("ny", g.ny);
        ld.add("Lower ipz", 0);
        ld.add("Upper ipz", g.npz - 1);
        ld.add("nz", g.nz);
        doc.add("########## Problem Summary  ##########", "");
        doc.add("Setup Information", "").add("Setup Time", times[Cg.T_SETUP]);
        OutputFile ls = doc.add("Linear System Information", "");
        ls.add("Number of Equations", a.totalRows);
        ls.add("Number of Nonzero Terms", a.totalNonzeros);
        OutputFile mi = doc.add("Multigrid Information", "");
        mi.add("Number of coarse grid levels", levels - 1);
        OutputFile cg = mi.add("Coarse Grids", "");
        af = a;
        for (int i = 1; i < levels; i++) {
            cg.add("Grid Level", i);
            cg.add("Number of Equations", af.coarse.totalRows);
            cg.add("Number of Nonzero Terms", af.coarse.totalNonzeros);
            cg.add("Number of Presmoother Steps", af.mg.presmootherSteps);
            cg.add("Number of Postsmoother Steps", af.mg.postsmootherSteps);
            af = af.coarse;
        }
        doc.add("########## Memory Use Summary  ##########", "");
        OutputFile mu = doc.add("Memory Use Information", "");
        mu.add("Total memory used for data (Gbytes)", bytes / 1e9);
        mu.add("Memory used for OptimizeProblem data (Gbytes)", optimizedBytes / 1e9);
        mu.add("Bytes per equation (Total memory / Number of Equations)", bytes / fnrow);
        mu.add("Memory used for linear system and CG (Gbytes)", perLevel[0] / 1e9);
        OutputFile mc = mu.add("Coarse Grids", "");
        for (int i = 1; i < levels; i++) {
            mc.add("Grid Level", i);
            mc.add("Memory used", perLevel[i] / 1e9);
        }
        doc.add("########## V&V Testing Summary  ##########", "");
        OutputFile sc = doc.add("Spectral Convergence Tests", "");
        sc.add("Result", cgTest.countFail == 0 ? "PASSED" : "FAILED");
        OutputFile un = sc.add("Unpreconditioned", "");
        un.add("Maximum iteration count", cgTest.nitersMaxNoPrec);
        un.add("Expected iteration count", cgTest.expectedNitersNoPrec);
        OutputFile pr = sc.add("Preconditioned", "");
        pr.add("Maximum iteration count", cgTest.nitersMaxPrec);
        pr.add("Expected iteration count", cgTest.expectedNitersPrec);
        OutputFile ds = doc.add("Departure from Symmetry |x'Ay-y'Ax|/(2*||x||*||A||*||y||)/epsilon", "");
        ds.add("Result", symTest.countFail == 0 ? "PASSED" : "FAILED");
        ds.add("Departure for SpMV", symTest.depsymSpmv);
        ds.add("Departure for MG", symTest.depsymMg);
        doc.add("########## Iterations Summary  ##########", "");
        OutputFile it = doc.add("Iteration Count Information", "");
        it.add("Result", globalFailure ? "FAILED" : "PASSED");
        it.add("Reference CG iterations per set", refMaxIters);
        it.add("Optimized CG iterations per set", optMaxIters);
        it.add("Total number of reference iterations", (long) refMaxIters * numberOfCgSets);
        it.add("Total number of optimized iterations", (long) optMaxIters * numberOfCgSets);
        doc.add("########## Reproducibility Summary  ##########", "");
        OutputFile re = doc.add("Reproducibility Information", "");
        re.add("Result", normsTest.pass ? "PASSED" : "FAILED");
        re.add("Scaled residual mean", normsTest.mean);
        re.add("Scaled residual variance", normsTest.variance);
        doc.add("########## Performance Summary (times in sec) ##########", "");
        OutputFile bt = doc.add("Benchmark Time Summary", "");
        bt.add("Optimization phase", times[Cg.T_OPTIMIZE]);
        bt.add("DDOT", times[Cg.T_DOT]);
        bt.add("WAXPBY", times[Cg.T_WAXPBY]);
        bt.add("SpMV", times[Cg.T_SPMV]);
        bt.add("MG", times[Cg.T_MG]);
        bt.add("Total", times[Cg.T_TOTAL]);
        OutputFile fo = doc.add("Floating Point Operations Summary", "");
        fo.add("Raw DDOT", m.ddot());
        fo.add("Raw WAXPBY", m.waxpby());
        fo.add("Raw SpMV", m.spmv());
        fo.add("Raw MG", m.mg());
        fo.add("Total", m.total());
        fo.add("Total with convergence overhead", m.totalWithOverhead());
        OutputFile bw = doc.add("GB/s Summary", "");
        bw.add("Raw Read B/W", m.reads() / times[Cg.T_TOTAL] / 1e9);
        bw.add("Raw Write B/W", m.writes() / times[Cg.T_TOTAL] / 1e9);
        bw.add("Raw Total B/W", (m.reads() + m.writes()) / times[Cg.T_TOTAL] / 1e9);
        bw.add("Total with convergence and optimization phase overhead", (m.refReads() + m.refWrites())
                / (times[Cg.T_TOTAL] + sets * (times[Cg.T_OPTIMIZE] / 10.0 + times[Cg.T_SETUP] / 10.0)) / 1e9);
        OutputFile gf = doc.add("GFLOP/s Summary", "");
        gf.add("Raw DDOT", m.ddot() / times[Cg.T_DOT] / 1e9);
        gf.add("Raw WAXPBY", m.waxpby() / times[Cg.T_WAXPBY] / 1e9);
        gf.add("Raw SpMV", m.spmv() / times[Cg.T_SPMV] / 1e9);
        gf.add("Raw MG", m.mg() / times[Cg.T_MG] / 1e9);
        gf.add("Raw Total", m.total() / times[Cg.T_TOTAL] / 1e9);
        gf.add("Total with convergence overhead", m.totalWithOverhead() / times[Cg.T_TOTAL] / 1e9);
        gf.add("Total with convergence and optimization phase overhead", totalGflops);
        OutputFile uo = doc.add("User Optimization Overheads", "");
        uo.add("Optimization phase time (sec)", times[Cg.T_OPTIMIZE]);
        uo.add("Optimization phase time vs reference SpMV+MG time", times[Cg.T_OPTIMIZE] / times[Cg.T_REF_SPMV_MG]);
        if (!par.isSerial()) {
            OutputFile dv = doc.add("DDOT Timing Variations", "");
            dv.add("Min DDOT MPI_Allreduce time", t4min);
            dv.add("Max DDOT MPI_Allreduce time", t4max);
            dv.add("Avg DDOT MPI_Allreduce time", t4avg);
        }
        OutputFile fs = doc.add("Final Summary", "");
        if (valid) {
            fs.add("HPCG result is VALID with a GFLOP/s rating of", totalGflops);
            fs.add("HPCG 2.4 rating for historical reasons is", totalGflops24);
            // the kernels are the reference algorithms (same arithmetic, flat storage), as the reference reports them
            fs.add("Reference version of ComputeDotProduct used", "Performance results are most likely suboptimal");
            fs.add("Reference version of ComputeSPMV used", "Performance results are most likely suboptimal");
            fs.add("Reference version of ComputeMG used", "Performance results are most likely suboptimal");
            fs.add("Reference version of ComputeWAXPBY used", "Performance results are most likely suboptimal");
            if (times[Cg.T_TOTAL] >= MIN_OFFICIAL_TIME) {
                fs.add("Please upload results from the YAML file contents to", "http://hpcg-benchmark.org");
            } else {
                fs.add("Results are valid but execution time (sec) is", times[Cg.T_TOTAL]);
                if (quickPath) {
                    fs.add("You have selected the QuickPath option", "Results are official for legacy installed "
                            + "systems with confirmation from the HPCG Benchmark leaders.");
                    fs.add("After confirmation please upload results from the YAML file contents to",
                            "http://hpcg-benchmark.org");
                } else {
                    fs.add("Official results execution time (sec) must be at least", MIN_OFFICIAL_TIME);
                }
            }
        } else {
            fs.add("HPCG result is", "INVALID.");
            fs.add("Please review the YAML file contents", "You may NOT submit these results for consideration.");
        }
        return new Result(doc.generate(), valid, totalGflops, totalGflops24, m);
    }
}

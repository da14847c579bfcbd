package org.fthp.apps.hpcg;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;
import org.fthp.checkpoint.api.Checkpointable;

/**
 * HPCG 3.1 driver (main.cpp): set up the problem, time the reference kernels, run the reference
 * CG to fix the target residual, validate (spectral and symmetry tests), find how many iterations
 * the "optimized" CG needs to reach that residual, pick the number of timed sets from the
 * measured time and {@code --rt}, run them, test the norms, and report.
 *
 * <p>Exit status: 0 for a valid run, 1 when validation fails, 2 for bad input.
 */
public final class Hpcg {
    static final int REF_MAX_ITERS = 50;
    static final int EXIT_INVALID = 1;
    static final int EXIT_BAD_INPUT = 2;

    private Hpcg() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int[] code = new int[1];
        try {
            // everything after Init may run again: the job rolls back in place here when a rank loses every copy
            // and a spare takes it (fthp-run --spares); the body rebuilds the problem and recovers its progress
            Checkpoint.resilient(start -> code[0] = run(args, Parallel.world()));
        } catch (InputError e) {
            // every rank reaches the same verdict from the same parameters: leave together, no abort needed
            if (rank == 0) {
                System.err.println("hpcg: " + e.getMessage());
            }
            code[0] = EXIT_BAD_INPUT;
        } catch (RuntimeException | Error e) {
            // a failure on one rank would leave the others waiting in a collective: end the job
            System.err.println("hpcg: rank " + rank + " failed: " + e);
            e.printStackTrace();
            MPI.COMM_WORLD.abort(3);
            code[0] = 3;
        }
        System.out.flush();
        MPI.Finalize();
        System.exit(code[0]);
    }

    /** Reads the parameters on rank 0 and shares them, as HPCG_Init does. */
    static Params readParams(String[] args, Parallel par) {
        int[] packed = new int[9];
        String error = null;
        Params local = null;
        if (par.rank == 0) {
            try {
                local = Params.parse(args);
                System.arraycopy(local.toInts(), 0, packed, 1, 8);
                packed[0] = 1;
            } catch (InputError e) {
                error = e.getMessage();
            }
        }
        par.bcast(packed);
        if (packed[0] != 1) {
            throw new InputError(error == null ? "bad input (see rank 0)" : error);
        }
        if (local != null) {
            return local;
        }
        Path out = Path.of(".");
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--out=")) {
                out = Path.of(args[i].substring(6));
            } else if (args[i].equals("--out") && i + 1 < args.length) {
                out = Path.of(args[i + 1]);
            }
        }
        return Params.fromInts(Arrays.copyOfRange(packed, 1, 9), out);
    }

    /** CheckAspectRatio: the local block and the process grid must resemble a cube (min/max >= 1/8). */
    static void checkAspectRatio(double smallest, int x, int y, int z, String what) {
        double ratio = Math.min(Math.min(x, y), z) / (double) Math.max(Math.max(x, y), z);
        if (ratio < smallest) {
            throw new InputError("The " + what + " sizes (" + x + "," + y + "," + z
                    + ") are invalid because the ratio min(x,y,z)/max(x,y,z)=" + OutputFile.cppDouble(ratio)
                    + " is too small (at least " + smallest + " is required). The shape should resemble a 3D cube.");
        }
    }

    static int run(String[] args, Parallel par) {
        Params params = readParams(args, par);
        boolean quickPath = params.runningTime() == 0;
        int rank = par.rank;
        checkAspectRatio(0.125, params.nx(), params.ny(), params.nz(), "local problem");
        Geometry geom = Geometry.create(par.size, rank, params.nx(), params.ny(), params.nz(),
                params.npx(), params.npy(), params.npz());
        checkAspectRatio(0.125, geom.npx, geom.npy, geom.npz, "process grid");

        String stamp = agreedNow(par).format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss"));
        Log log = new Log(rank == 0 ? params.outDir() : null, "hpcg" + stamp + ".txt");
        try {
            return runPhases(params, par, geom, quickPath, log);
        } finally {
            log.close();
        }
    }

    /**
     * The wall clock as every rank and every copy of a rank sees it: the latest of their clocks, through a
     * collective, whose result a replica takes from its computational copy. Each copy of rank 0 writes the
     * log and the report; with its own clock a replica that named them a second after its twin would leave its
     * own files beside the ones a restart recovers (two hpcg*.txt after a restart).
     */
    private static LocalDateTime agreedNow(Parallel par) {
        // each copy's own clock: the twins of a replicated rank contribute different readings, legitimately
        Checkpoint.nextContributionUncompared();
        long millis = (long) par.max((double) System.currentTimeMillis());
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneId.systemDefault());
    }

    private static int runPhases(Params params, Parallel par, Geometry geom, boolean quickPath, Log log) {
        int rank = par.rank;
        Progress progress = new Progress();
        double[] times = progress.times;

        // ---- problem setup (also after a restart: rebuilding it is cheaper than checkpointing it)
        double setup = par.now();
        Problem problem = Problem.build(geom, par);
        double setupTime = par.now() - setup;
        SparseMatrix a = problem.a;
        double[] b = problem.b, x = problem.x, xexact = problem.xexact;
        Cg.Data data = new Cg.Data(a);
        Cg cg = new Cg(a, data, par);
        Cg.Outcome out = new Cg.Outcome();

        // ---- the state a restart resumes from: the phases' results, the timers, the sets done, the log
        Checkpoint.register("hpcg.progress", progress);
        Checkpoint.register("hpcg.log", log);
        boolean resumed = Checkpoint.isRestart() && Checkpoint.recover() >= 0;
        if (!resumed) {
            times[Cg.T_SETUP] = setupTime;
            prepare(params, par, quickPath, log, progress, problem, cg, out);
        }
        int numberOfCgSets = progress.numberOfCgSets;
        double[] residuals = progress.residuals;

        // ---- timed sets (the main loop): each a safe point first, where a checkpoint may be taken
        for (; progress.nextSet < numberOfCgSets; progress.nextSet++) {
            int i = progress.nextSet;
            Checkpoint.snapshot();
            Arrays.fill(x, 0.0);
            cg.solve(b, x, progress.optNiters, 0.0, times, true, out);
            residuals[i] = out.normr / out.normr0;
            log.line("Call [" + i + "] Scaled Residual [" + OutputFile.cppDouble(residuals[i]) + "]");
        }
        Validation.NormsTest normsTest = Validation.testNorms(residuals);

        // ---- report
        Report.Result result = Report.build(a, par, numberOfCgSets, REF_MAX_ITERS, progress.optNiters, times,
                progress.cgTest, progress.symTest, normsTest, progress.globalFailure, quickPath);
        LocalDateTime reportTime = agreedNow(par);
        if (rank == 0) {
            String stamp = reportTime.format(DateTimeFormatter.ofPattern("yyyy-MM-dd_HH-mm-ss"));
            Path file = params.outDir().resolve("HPCG-Benchmark_" + Report.VERSION + "_" + stamp + ".txt");
            try {
                Files.createDirectories(params.outDir());
                Files.writeString(file, result.text());
            } catch (IOException e) {
                throw new IllegalStateException("cannot write report " + file + ": " + e.getMessage(), e);
            }
            printSummary(geom, a, progress.refNiters, progress.refTolerance, progress.cgTest, progress.symTest,
                    progress.optNiters, progress.optScaledResidual, numberOfCgSets, normsTest, result, times, file);
        }
        return result.valid() ? 0 : EXIT_INVALID;
    }

    /**
     * Everything before the timed sets: the reference kernels' timing, the reference CG (fixes the
     * residual to reach), validation, the optimized CG's iteration count and the number of timed
     * sets; their results go to {@code progress}.
     */
    private static void prepare(Params params, Parallel par, boolean quickPath, Log log, Progress progress,
                                Problem problem, Cg cg, Cg.Outcome out) {
        double[] times = progress.times;
        SparseMatrix a = problem.a;
        double[] b = problem.b, x = problem.x, xexact = problem.xexact;
        CRandom rand = new CRandom();

        // ---- reference SpMV+MG timing
        double[] xOverlap = new double[a.ncol];
        double[] bComputed = new double[a.nrow];
        rand.fill(xOverlap);
        int calls = quickPath ? 1 : 10;
        double t0 = par.now();
        for (int i = 0; i < calls; i++) {
            Kernels.spmv(a, xOverlap, bComputed);
            Kernels.mg(a, bComputed, xOverlap);
        }
        times[Cg.T_REF_SPMV_MG] = (par.now() - t0) / calls;

        // ---- reference CG: fixes the residual reduction the optimized CG must reach
        double[] refTimes = new double[9];
        Arrays.fill(x, 0.0);
        cg.solve(b, x, REF_MAX_ITERS, 0.0, refTimes, true, out);
        progress.refNiters = out.niters;
        progress.refTolerance = out.normr / out.normr0;
        double refTolerance = progress.refTolerance;
        log.line("Reference CG: " + progress.refNiters + " iterations, scaled residual " + refTolerance);

        // ---- OptimizeProblem: nothing to do, the flat layout is built directly
        double t7 = par.now();
        times[Cg.T_OPTIMIZE] = par.now() - t7;

        // ---- validation
        Validation.CgTest cgTest = Validation.testCg(a, cg, b, x, log::line);
        Validation.SymmetryTest symTest = Validation.testSymmetry(a, cg, b, xexact, rand, par, log::line);
        copy(cgTest, progress.cgTest);
        copy(symTest, progress.symTest);

        // ---- optimized CG setup: iterations needed to reach the reference residual
        int optMaxIters = 10 * REF_MAX_ITERS;
        double[] optTimes = new double[9];
        Arrays.fill(x, 0.0);
        cg.solve(b, x, optMaxIters, refTolerance, optTimes, true, out);
        boolean toleranceFailure = out.normr / out.normr0 > refTolerance * (1.0 + 1.0e-6);
        progress.optNiters = Math.max(REF_MAX_ITERS, out.niters);
        double optWorstTime = par.max(optTimes[Cg.T_TOTAL]);
        progress.optScaledResidual = out.normr / out.normr0;
        progress.globalFailure = toleranceFailure;
        if (toleranceFailure) {
            log.line("Failed to reduce the residual 1 times.");
        }

        // ---- timed sets: as many as fit in the target time, at least one, or --sets (decided here, once)
        progress.decideSets(params.sets() > 0 ? params.sets() : (int) (params.runningTime() / optWorstTime) + 1);
        log.line("Projected running time: " + params.runningTime() + " seconds");
        log.line("Number of CG sets: " + progress.numberOfCgSets);
    }

    private static void copy(Validation.CgTest from, Validation.CgTest to) {
        to.countPass = from.countPass;
        to.countFail = from.countFail;
        to.nitersMaxNoPrec = from.nitersMaxNoPrec;
        to.nitersMaxPrec = from.nitersMaxPrec;
        to.normr = from.normr;
    }

    private static void copy(Validation.SymmetryTest from, Validation.SymmetryTest to) {
        to.depsymSpmv = from.depsymSpmv;
        to.depsymMg = from.depsymMg;
        to.countFail = from.countFail;
    }

    private static void printSummary(Geometry g, SparseMatrix a, int refNiters, double refTolerance,
                                     Validation.CgTest cgTest, Validation.SymmetryTest symTest, int optNiters,
                                     double optScaledResidual, int sets, Validation.NormsTest norms,
                                     Report.Result result, double[] times, Path file) {
        System.out.printf("HPCG %s (Java port): %d processes, grid %dx%dx%d, local %dx%dx%d, global %dx%dx%d, "
                        + "%d equations%n", Report.VERSION, g.size, g.npx, g.npy, g.npz, g.nx, g.ny, g.nz,
                g.gnx, g.gny, g.gnz, a.totalRows);
        System.out.println("reference CG: iterations=" + refNiters + " scaled residual=" + refTolerance);
        System.out.println("spectral test " + (cgTest.countFail == 0 ? "PASSED" : "FAILED")
                + ": unpreconditioned max iterations=" + cgTest.nitersMaxNoPrec + " (expected <= "
                + cgTest.expectedNitersNoPrec + "), preconditioned max iterations=" + cgTest.nitersMaxPrec
                + " (expected <= " + cgTest.expectedNitersPrec + ")");
        System.out.println("symmetry test " + (symTest.countFail == 0 ? "PASSED" : "FAILED")
                + ": SpMV departure=" + symTest.depsymSpmv + " MG departure=" + symTest.depsymMg);
        System.out.println("optimized CG: iterations=" + optNiters + " scaled residual=" + optScaledResidual);
        System.out.println("timed sets=" + sets + " of " + optNiters + " iterations; last scaled residual="
                + norms.values[sets - 1]);
        System.out.println("reproducibility " + (norms.pass ? "PASSED" : "FAILED") + ": mean=" + norms.mean
                + " variance=" + norms.variance);
        System.out.printf("benchmark time %.3f s; GFLOP/s raw=%.4f with overheads=%.4f%n", times[Cg.T_TOTAL],
                result.model().total() / times[Cg.T_TOTAL] / 1e9, result.gflops());
        System.out.println(result.valid()
                ? "HPCG result is VALID with a GFLOP/s rating of " + OutputFile.cppDouble(result.gflops())
                : "HPCG result is INVALID");
        System.out.println("report: " + file.toAbsolutePath().normalize());
    }

    /**
     * Rank 0's log file (the reference's HPCG_fout, numbers as C++ prints them); other ranks log
     * nothing. Checkpointed with the run: a restart rewrites the file it had, with the lines it held
     * then, and goes on appending to it (the lines of rolled-back sets are not repeated).
     */
    static final class Log implements AutoCloseable, Checkpointable {
        private final Path dir;
        private String name;
        private final StringBuilder text = new StringBuilder();
        private PrintWriter w;

        /** {@code dir} null: this rank keeps no log. */
        Log(Path dir, String name) {
            this.dir = dir;
            this.name = name;
            open();
        }

        private void open() {
            if (dir == null) {
                return;
            }
            Path file = dir.resolve(name);
            try {
                Files.createDirectories(dir);
                w = new PrintWriter(Files.newBufferedWriter(file));
            } catch (IOException e) {
                throw new IllegalStateException("cannot write log file " + file + ": " + e.getMessage());
            }
            w.print(text);
            w.flush();
        }

        void line(String s) {
            if (w != null) {
                w.println(s);
                text.append(s).append('\n');
            }
        }

        @Override
        public void write(DataOutput out) throws IOException {
            if (w != null) {
                w.flush();
            }
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            byte[] t = text.toString().getBytes(StandardCharsets.UTF_8);
            out.writeInt(n.length);
            out.write(n);
            out.writeInt(t.length);
            out.write(t);
        }

        @Override
        public void read(DataInput in) throws IOException {
            byte[] n = new byte[in.readInt()];
            in.readFully(n);
            byte[] t = new byte[in.readInt()];
            in.readFully(t);
            String recovered = new String(n, StandardCharsets.UTF_8);
            if (w != null) {
                // this run's own (still empty) log gives way to the one the checkpoint belongs to
                w.close();
                if (!recovered.equals(name)) {
                    Files.deleteIfExists(dir.resolve(name));
                }
            }
            name = recovered;
            text.setLength(0);
            text.append(new String(t, StandardCharsets.UTF_8));
            open();
        }

        @Override
        public void close() {
            if (w != null) {
                w.close();
            }
        }
    }
}

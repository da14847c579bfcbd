package org.fthp.apps.cloverleaf;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;
import org.fthp.checkpoint.api.Checkpointable;

/**
 * The set-up and the main cycle (the reference's start, hydro and timestep): each step picks a
 * stable timestep, takes a predictor-corrector Lagrangian step, advects back onto the fixed mesh
 * with the sweep order alternating between steps, and prints field summaries.
 */
final class Hydro {

    /** Failure every rank detects at the same point (all hold the same reduced dt), so all stop together. */
    static final class RunError extends Exception {
        RunError(String message) {
            super(message);
        }
    }

    private static final int START_FIELDS = Field.set(Field.DENSITY0, Field.ENERGY0, Field.PRESSURE,
            Field.VISCOSITY, Field.DENSITY1, Field.ENERGY1, Field.XVEL0, Field.YVEL0, Field.XVEL1, Field.YVEL1);
    private static final int TIMESTEP_FIELDS = Field.set(Field.PRESSURE, Field.ENERGY0, Field.DENSITY0,
            Field.XVEL0, Field.YVEL0);
    private static final int ADVECT_CELL_FIELDS = Field.set(Field.ENERGY1, Field.DENSITY1,
            Field.VOL_FLUX_X, Field.VOL_FLUX_Y);
    private static final int ADVECT_MOM_FIELDS = Field.set(Field.DENSITY1, Field.ENERGY1, Field.XVEL1,
            Field.YVEL1, Field.MASS_FLUX_X, Field.MASS_FLUX_Y);

    private final Deck deck;
    private final Chunk c;
    private final Intracomm comm;
    private final Report report;
    private final HaloExchange halo;
    private final FieldSummary summary = new FieldSummary();
    private final Profile profile = new Profile();
    private final double[] dtBuf = new double[1];
    private final int ranks;
    private final int[] neighbours;

    int step;
    double time;
    double dt;
    double dtOld;
    boolean advectX = true;
    boolean complete;
    /** Wall time of the main cycle and of its first step, seconds (rank-local clock). */
    double wallClock;
    double firstStep;
    /** CPU time of this rank's main thread over the main cycle, seconds (tells compute from waiting on a busy machine). */
    double cpuSeconds;
    private long cpu0;
    /** Wall and CPU seconds of the main cycle before this run resumed it from a checkpoint (0 otherwise). */
    private double wallBefore;
    private double cpuBefore;
    private double secondStep;
    /** The timers at the last safe point (a checkpoint saves them; no MPI call while it is written). */
    private double wallAtSafePoint;
    private double cpuAtSafePoint;
    /** When this run entered the main cycle (MPI.wtime). */
    private double t0;

    private static long threadCpu() {
        java.lang.management.ThreadMXBean b = java.lang.management.ManagementFactory.getThreadMXBean();
        return b.isCurrentThreadCpuTimeSupported() ? b.getCurrentThreadCpuTime() : 0L;
    }

    Hydro(Deck deck, Chunk c, int[] neighbours, Intracomm comm, Report report, int ranks) {
        this.deck = deck;
        this.c = c;
        this.comm = comm;
        this.report = report;
        this.ranks = ranks;
        this.neighbours = neighbours.clone();
        this.halo = new HaloExchange(c, neighbours, comm);
    }

    /** Builds the initial state, primes every halo and prints the step 0 summary. */
    void start() throws MPIException {
        time = 0.0;
        step = 0;
        dtOld = deck.dtInit();
        dt = deck.dtInit();
        Setup.geometry(c, deck);
        Setup.generate(c, deck);
        IdealGas.compute(c, false);
        halo.update(START_FIELDS, 2);
        report.log("");
        report.log(" Problem initialised and generated");
        fieldSummary();
        halo.seconds = 0.0;
    }

    /**
     * Registers what a restart needs to resume the main cycle (docs/DESIGN.md §12): the fields of
     * the chunk that carry from one step to the next, halos included, and the cycle's scalars. The
     * mesh geometry is not saved ({@link #start} rebuilds it), nor the advection's scratch arrays.
     */
    void registerState() {
        String[] names = {"density0", "density1", "energy0", "energy1", "pressure", "viscosity", "soundspeed",
            "xvel0", "xvel1", "yvel0", "yvel1", "vol_flux_x", "mass_flux_x", "vol_flux_y", "mass_flux_y"};
        double[][] fields = {c.density0, c.density1, c.energy0, c.energy1, c.pressure, c.viscosity, c.soundspeed,
            c.xvel0, c.xvel1, c.yvel0, c.yvel1, c.volFluxX, c.massFluxX, c.volFluxY, c.massFluxY};
        for (int i = 0; i < names.length; i++) {
            Checkpoint.register("clover.field." + names[i], fields[i]);
        }
        Checkpoint.register("clover.cycle", new Cycle());
        // this copy's own CPU and halo timers: the twins of a replicated rank legitimately differ there
        Checkpoint.registerUncompared("clover.cycle.timers", new Timers());
        Checkpoint.registerUncompared("clover.profile", profile.nanos);
    }

    /** The cycle's timers read from this process's own clocks (not through MPI), saved but never compared. */
    private final class Timers implements Checkpointable {
        @Override
        public void write(DataOutput out) throws IOException {
            out.writeDouble(cpuAtSafePoint);
            out.writeDouble(halo.seconds);
        }

        @Override
        public void read(DataInput in) throws IOException {
            cpuBefore = in.readDouble();
            halo.seconds = in.readDouble();
        }
    }

    /**
     * The main cycle's scalars: where it is, and its MPI.wtime timers (the same on both copies of a rank: wtime is
     * decided by the computational copy), so a resumed run reports the whole run's time.
     */
    private final class Cycle implements Checkpointable {
        @Override
        public void write(DataOutput out) throws IOException {
            out.writeInt(step);
            out.writeDouble(time);
            out.writeDouble(dt);
            out.writeDouble(dtOld);
            out.writeBoolean(advectX);
            out.writeDouble(wallAtSafePoint);
            out.writeDouble(firstStep);
            out.writeDouble(secondStep);
        }

        @Override
        public void read(DataInput in) throws IOException {
            step = in.readInt();
            time = in.readDouble();
            dt = in.readDouble();
            dtOld = in.readDouble();
            advectX = in.readBoolean();
            wallBefore = in.readDouble();
            firstStep = in.readDouble();
            secondStep = in.readDouble();
        }
    }

    void run() throws MPIException, RunError {
        t0 = MPI.wtime();
        cpu0 = threadCpu();
        while (true) {
            double stepStart = MPI.wtime();
            step++;
            timestep();

            profile.begin();
            pdv(true);
            Accelerate.compute(c, dt);
            profile.end(Profile.Part.ACCELERATION);
            pdv(false);
            FluxCalc.compute(c, dt);
            profile.end(Profile.Part.FLUXES);
            advection();
            TimeLevels.reset(c);
            profile.end(Profile.Part.RESET);

            advectX = !advectX;
            time = time + dt;

            if (deck.summaryFrequency() != 0 && step % deck.summaryFrequency() == 0) {
                fieldSummary();
            }
            if (step == 1) {
                firstStep = MPI.wtime() - stepStart;
            } else if (step == 2) {
                secondStep = MPI.wtime() - stepStart;
            }
            if (time + CalcDt.G_SMALL > deck.endTime() || step >= deck.endStep()) {
                complete = true;
                fieldSummary();
                wallClock = wallBefore + MPI.wtime() - t0;
                cpuSeconds = cpuBefore + (threadCpu() - cpu0) * 1e-9;
                long checksum = FieldChecksum.compute(c, neighbours, deck.xCells(), comm);
                report.both(String.format(" Field checksum %016x (equal on any rank count when the fields are bitwise equal)",
                        checksum));
                finish(firstStep - secondStep);
                return;
            }
            double now = MPI.wtime();
            double wall = wallBefore + now - t0;
            double cells = (double) deck.xCells() * deck.yCells();
            report.log(" Wall clock " + wall);
            report.log(" Average time per cell " + wall / (step * cells));
            report.log(" Step time per cell    " + (now - stepStart) / cells);
            // the step is done and its messages received: a safe point, where a checkpoint may be taken
            // (what the console holds goes out first: the checkpoint records how far stdout got)
            report.flushConsole();
            wallAtSafePoint = wall;
            cpuAtSafePoint = cpuBefore + (threadCpu() - cpu0) * 1e-9;
            Checkpoint.snapshot();
        }
    }

    private void timestep() throws MPIException, RunError {
        profile.begin();
        IdealGas.compute(c, false);
        profile.end(Profile.Part.IDEAL_GAS);
        halo.update(TIMESTEP_FIELDS, 1);
        profile.begin();
        Viscosity.compute(c);
        profile.end(Profile.Part.VISCOSITY);
        halo.update(Field.VISCOSITY.bit, 1);
        profile.begin();
        double local = CalcDt.compute(c, deck);
        dtBuf[0] = Math.min(Math.min(local, dtOld * deck.dtRise()), deck.dtMax());
        comm.allReduce(dtBuf, 1, MPI.DOUBLE, MPI.MIN);
        dt = dtBuf[0];
        profile.end(Profile.Part.TIMESTEP);

        // The reference's calc_dt always reports the sound-speed limit at the chunk's first cell.
        int jdt = 1 % c.xMax;
        int kdt = (int) (1 + 1.0 / c.xMax);
        String line = " Step " + Fmt.i(step, 7) + " time " + Fmt.f(time, 11, 7) + " control "
                + Fmt.a("sound   ", 11) + " timestep  " + Fmt.es(dt, 9, 2) + Fmt.i(jdt, 8) + ","
                + Fmt.i(kdt, 8) + " x " + Fmt.es(c.cellx[jdt + Chunk.HALO], 9, 2)
                + " y " + Fmt.es(c.celly[kdt + Chunk.HALO], 9, 2);
        report.both(line);
        if (dt < deck.dtMin()) {
            throw new RunError("timestep: small timestep " + dt + " below " + deck.dtMin() + " at step " + step);
        }
        dtOld = dt;
    }

    private void pdv(boolean predict) throws MPIException {
        PdV.compute(c, predict, dt);
        profile.end(Profile.Part.PDV);
        if (predict) {
            IdealGas.compute(c, true);
            profile.end(Profile.Part.IDEAL_GAS);
            halo.update(Field.PRESSURE.bit, 1);
            profile.begin();
            TimeLevels.revert(c);
            profile.end(Profile.Part.REVERT);
        }
    }

    private void advection() throws MPIException {
        halo.update(ADVECT_CELL_FIELDS, 2);
        profile.begin();
        AdvecCell.sweep(c, advectX, 1);
        profile.end(Profile.Part.CELL_ADVECTION);
        halo.update(ADVECT_MOM_FIELDS, 2);
        profile.begin();
        AdvecMom.sweep(c, advectX, 1);
        profile.end(Profile.Part.MOMENTUM_ADVECTION);
        AdvecCell.sweep(c, !advectX, 2);
        profile.end(Profile.Part.CELL_ADVECTION);
        halo.update(ADVECT_MOM_FIELDS, 2);
        profile.begin();
        AdvecMom.sweep(c, !advectX, 2);
        profile.end(Profile.Part.MOMENTUM_ADVECTION);
    }

    private void fieldSummary() throws MPIException {
        long t0 = System.nanoTime();
        summary.compute(c, comm);
        profile.add(Profile.Part.SUMMARY, (System.nanoTime() - t0) * 1e-9);
        if (!report.boss()) {
            return;
        }
        double[] t = summary.totals;
        double vol = t[FieldSummary.VOL];
        double mass = t[FieldSummary.MASS];
        double ie = t[FieldSummary.IE];
        double ke = t[FieldSummary.KE];
        double press = t[FieldSummary.PRESS];
        report.both("");
        report.both(" Time " + Fmt.f(time, 24, 16));
        StringBuilder head = new StringBuilder(Fmt.a("", 13));
        for (String h : new String[] {"Volume", "Mass", "Density", "Pressure", "Internal Energy",
            "Kinetic Energy", "Total Energy"}) {
            head.append(Fmt.a(h, 16));
        }
        report.both(head.toString());
        double[] row = {vol, mass, mass / vol, press / vol, ie, ke, ie + ke};
        StringBuilder b = new StringBuilder(" step:").append(Fmt.i(step, 7));
        for (double v : row) {
            b.append(Fmt.e(v, 16, 4));
        }
        report.both(b.toString());
        report.both("");
        report.summaryFull(step, time, row);
        if (complete && deck.testProblem() >= 1) {
            if (FieldSummary.hasExpected(deck.testProblem())) {
                double qa = FieldSummary.qaDiff(deck.testProblem(), ke);
                report.both("Test problem" + Fmt.i(deck.testProblem(), 4) + " is within" + Fmt.e(qa, 16, 7)
                        + "% of the expected solution");
                report.both(qa < FieldSummary.TOLERANCE_PERCENT ? " This test is considered PASSED"
                        : " This test is considered NOT PASSED");
            } else {
                report.both(" Test problem " + deck.testProblem() + " has no expected solution (1 to 5 have)");
            }
        }
        report.flush();
    }

    private void finish(double firstStepOverhead) {
        profile.add(Profile.Part.HALO_EXCHANGE, halo.seconds);
        report.log("");
        report.log(" Calculation complete");
        report.log(" Clover is finishing");
        report.log(" Wall clock " + wallClock);
        report.log(" First step overhead " + firstStepOverhead);
        report.console(" Wall clock " + wallClock);
        report.console(" First step overhead " + firstStepOverhead);
        double cellUpdates = (double) deck.xCells() * deck.yCells() * step;
        report.both(String.format(java.util.Locale.ROOT,
                " Benchmark: %d steps of %dx%d cells on %d rank(s): %.3f s, %.3f ms/step, %.4g cell updates/s"
                        + " (rank 0 main thread CPU %.3f ms/step)",
                step, deck.xCells(), deck.yCells(), ranks, wallClock, 1e3 * wallClock / step,
                cellUpdates / wallClock, 1e3 * cpuSeconds / step));
        if (deck.profilerOn()) {
            report.both("");
            report.both(" Profiler Output (rank 0)        Time            Percentage");
            for (Profile.Part p : Profile.Part.values()) {
                report.both(String.format(java.util.Locale.ROOT, " %-22s:%16.4f%16.4f", p.label,
                        profile.seconds(p), 100.0 * profile.seconds(p) / wallClock));
            }
            double total = profile.total();
            report.both(String.format(java.util.Locale.ROOT, " %-22s:%16.4f%16.4f", "Total", total,
                    100.0 * total / wallClock));
            report.both(String.format(java.util.Locale.ROOT, " %-22s:%16.4f%16.4f", "The Rest",
                    wallClock - total, 100.0 * (wallClock - total) / wallClock));
        }
        report.flush();
    }
}

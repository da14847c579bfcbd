package org.fthp.apps.hpcg;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import org.fthp.checkpoint.api.Checkpointable;

/**
 * What the timed sets (HPCG's main loop) need from everything before them, and how far they got:
 * the checkpointed state of a run. A restart rebuilds the problem (deterministic from the
 * geometry), recovers this and goes on with the next set, skipping the reference CG, the
 * validation and the optimized-CG setup, whose results are here.
 *
 * <p>Decisions taken from measured time are saved, not re-measured: the number of timed sets (from
 * the optimized CG's time and {@code --rt}) would otherwise differ in the restarted run. The timers
 * are saved too, so the report's times are those of the work that counts, not of the rolled-back
 * part. The solution vector is not: every set starts from x = 0, and nothing after a set reads it.
 */
final class Progress implements Checkpointable {
    /** Timers of the phases (Cg.T_* indices), accumulated over the timed sets done. */
    final double[] times = new double[10];

    int refNiters;
    double refTolerance;
    final Validation.CgTest cgTest = new Validation.CgTest();
    final Validation.SymmetryTest symTest = new Validation.SymmetryTest();
    int optNiters;
    double optScaledResidual;
    boolean globalFailure;
    /** Decided once from measured time; a restart keeps it. */
    int numberOfCgSets;
    /** Scaled residual of each timed set; the first {@link #nextSet} hold values. */
    double[] residuals = new double[0];
    /** The timed set to run next. */
    int nextSet;

    void decideSets(int sets) {
        numberOfCgSets = sets;
        residuals = new double[sets];
        nextSet = 0;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        for (double t : times) {
            out.writeDouble(t);
        }
        out.writeInt(refNiters);
        out.writeDouble(refTolerance);
        out.writeInt(cgTest.countPass);
        out.writeInt(cgTest.countFail);
        out.writeInt(cgTest.nitersMaxNoPrec);
        out.writeInt(cgTest.nitersMaxPrec);
        out.writeDouble(cgTest.normr);
        out.writeDouble(symTest.depsymSpmv);
        out.writeDouble(symTest.depsymMg);
        out.writeInt(symTest.countFail);
        out.writeInt(optNiters);
        out.writeDouble(optScaledResidual);
        out.writeBoolean(globalFailure);
        out.writeInt(numberOfCgSets);
        out.writeInt(nextSet);
        for (double r : residuals) {
            out.writeDouble(r);
        }
    }

    @Override
    public void read(DataInput in) throws IOException {
        for (int i = 0; i < times.length; i++) {
            times[i] = in.readDouble();
        }
        refNiters = in.readInt();
        refTolerance = in.readDouble();
        cgTest.countPass = in.readInt();
        cgTest.countFail = in.readInt();
        cgTest.nitersMaxNoPrec = in.readInt();
        cgTest.nitersMaxPrec = in.readInt();
        cgTest.normr = in.readDouble();
        symTest.depsymSpmv = in.readDouble();
        symTest.depsymMg = in.readDouble();
        symTest.countFail = in.readInt();
        optNiters = in.readInt();
        optScaledResidual = in.readDouble();
        globalFailure = in.readBoolean();
        int sets = in.readInt();
        int next = in.readInt();
        if (sets < 1 || next < 0 || next > sets) {
            throw new IOException("inconsistent HPCG progress: set " + next + " of " + sets);
        }
        decideSets(sets);
        nextSet = next;
        for (int i = 0; i < sets; i++) {
            residuals[i] = in.readDouble();
        }
    }
}

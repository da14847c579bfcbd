package org.fthp.model.strategy;

import org.fthp.model.Strikes;
import org.fthp.model.failure.Weibull;

/**
 * The processes a job gets and how they fail: a per-process MTBF, so the system
 * MTBF is MTBF / processes (the paper's definition), Weibull inter-arrival times
 * of the given shape, and which processes a failure may strike.
 */
public record Machine(int processes, double mtbfPerProcessSeconds, double shape, Strikes strikes) {

    public static final double YEAR_SECONDS = 365.25 * 86400;

    public Machine {
        if (processes < 1) {
            throw new IllegalArgumentException("a machine has at least 1 process, not " + processes);
        }
        if (!(mtbfPerProcessSeconds > 0) || Double.isInfinite(mtbfPerProcessSeconds)) {
            throw new IllegalArgumentException("per-process MTBF must be a finite number of seconds > 0, not "
                    + mtbfPerProcessSeconds);
        }
        if (!(shape > 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("Weibull shape must be a finite number > 0, not " + shape);
        }
    }

    /** A machine whose system MTBF is given rather than the per-process one. */
    public static Machine withSystemMtbf(int processes, double systemMtbfSeconds, double shape, Strikes strikes) {
        return new Machine(processes, systemMtbfSeconds * processes, shape, strikes);
    }

    public double systemMtbfSeconds() {
        return mtbfPerProcessSeconds / processes;
    }

    /** Time between two failures anywhere on the machine. */
    public Weibull interArrival() {
        return new Weibull(systemMtbfSeconds(), shape);
    }

    public Machine withProcesses(int count) {
        return new Machine(count, mtbfPerProcessSeconds, shape, strikes);
    }
}

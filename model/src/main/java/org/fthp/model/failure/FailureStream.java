package org.fthp.model.failure;

import java.util.SplittableRandom;

/**
 * Failures of a whole machine as fthp-run's injector makes them: a renewal
 * process whose inter-arrival times are Weibull with mean = the system MTBF
 * (per-process MTBF / processes), running on whatever the job does (failures
 * are the machine's: they go on during checkpoints and restarts, unless the
 * stream is {@link #restartAt started over}, as the injector does for each
 * incarnation). Which process
 * each failure strikes is the job's business ({@link org.fthp.model.Strikes}).
 */
public final class FailureStream {

    private final Weibull interArrival;
    private final SplittableRandom random;
    private double next;

    public FailureStream(Weibull interArrival, SplittableRandom random) {
        this.interArrival = interArrival;
        this.random = random;
        this.next = interArrival.sample(random);
    }

    /** Time of the next failure not yet consumed. */
    public double peek() {
        return next;
    }

    /** Consumes the next failure and returns its time. */
    public double take() {
        double now = next;
        next = now + interArrival.sample(random);
        return now;
    }

    /**
     * Starts the stream over at {@code time}, as fthp-run's injector does for
     * each incarnation of a job: the next failure is a fresh draw after it.
     */
    public void restartAt(double time) {
        next = time + interArrival.sample(random);
    }

    /** The stream's own random source, also used to pick victims, so one seed fixes a run. */
    public SplittableRandom random() {
        return random;
    }
}

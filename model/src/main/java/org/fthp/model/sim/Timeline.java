package org.fthp.model.sim;

/**
 * One simulated run.
 *
 * @param makespanSeconds       wall time to the end (or to the cap when unfinished)
 * @param workDoneSeconds       failure-free work completed and kept
 * @param split                 where the wall time went
 * @param failures              failures that struck the job (harmless ones on dead processes included)
 * @param interruptions         failures that interrupted it
 * @param firstInterruptionTime time of the first interruption; infinite when none
 * @param failuresToFirstInterruption failures up to and including the first interruption; 0 when none
 * @param finished              false when the run hit the time cap (the job barely progresses)
 */
public record Timeline(double makespanSeconds, double workDoneSeconds, TimeSplit split, long failures,
                       long interruptions, double firstInterruptionTime, long failuresToFirstInterruption,
                       boolean finished) {}

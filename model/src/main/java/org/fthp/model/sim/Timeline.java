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
 * @param rollbacks             interruptions recovered in place (a spare taking the lost rank)
 * @param restorations          commits after which spares became the replicas of ranks that had lost theirs
 * @param unprotectedProcessSeconds work the result keeps, in process-seconds, during which a silent
 *                              corruption would go unnoticed (unreplicated ranks, ranks whose replica is
 *                              dead, every copy when twins do not compare)
 */
public record Timeline(double makespanSeconds, double workDoneSeconds, TimeSplit split, long failures,
                       long interruptions, double firstInterruptionTime, long failuresToFirstInterruption,
                       boolean finished, long rollbacks, long restorations, double unprotectedProcessSeconds) {}

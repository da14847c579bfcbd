package org.fthp.model.projection;

import org.fthp.model.sim.MonteCarlo;
import org.fthp.model.strategy.Setup;

/**
 * One strategy at one process count: its setup, the simulated estimate and the
 * closed-form (exponential) estimate beside it.
 */
public record ProjectionPoint(int processes, double systemMtbfSeconds, Setup setup, MonteCarlo.Estimate estimate,
                              double closedFormEfficiency) {}

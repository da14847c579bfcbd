package org.fthp.model.sim;

/**
 * When failures strike relative to the job's restarts.
 *
 * <ul>
 * <li>{@link #MACHINE}: a real machine's failures, one renewal process that runs
 * through everything the job does, restarts included (a failure during a
 * restart starts it over). The projections use this.
 * <li>{@link #INJECTOR}: fthp-run's failure injector, what the experiments on
 * this machine measure. Its clock starts once every process of an incarnation
 * has registered and stops with the incarnation: no failure strikes a relaunch
 * or a restore, and each incarnation draws a fresh Weibull stream from its
 * start (under a shape below 1 a fresh stream fails sooner than one carried
 * on, whose next arrival is on average further away than a new draw's).
 * </ul>
 */
public enum FailureClock {
    MACHINE,
    INJECTOR
}

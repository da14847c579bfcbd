package org.fthp.model;

/**
 * Which processes a failure may strike, the convention that decides how many
 * failures a replicated job survives on average (it does not change the time to
 * interruption of processes with independent clocks: see {@link JobMtti}).
 */
public enum Strikes {
    /**
     * Only live processes fail (fthp-run's injector: it kills a random live rank
     * process). One replicated rank survives exactly one failure: 2 on average.
     */
    LIVE_PROCESSES,
    /**
     * A failure may strike a process that is already dead and then changes
     * nothing (Ferreira et al., Casanova et al.: failures are a property of the
     * hardware, not of what runs on it). One replicated rank takes 3 failures on
     * average before both copies are gone: the birthday problem for two slots.
     */
    ANY_PROCESS
}

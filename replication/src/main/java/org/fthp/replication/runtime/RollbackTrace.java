package org.fthp.replication.runtime;

import org.fthp.replication.output.RuntimeMessages;

/**
 * With FTHP_TRACE_ROLLBACK set, the wall-clock millisecond at which this process passed each step of its part in a
 * rollback's rebuild, on one stderr line ({@code fthp-rollback-steps native N step=ms ...}: readiness, the control
 * communicator, the engine, the world; a spare's registration), beside the per-rollback lines bench/checkpoint.sh
 * reads (its ROLLBACK_RAW keeps them); nothing otherwise.
 */
final class RollbackTrace {

    static final boolean ON = System.getenv("FTHP_TRACE_ROLLBACK") != null;

    private final StringBuilder line;

    private RollbackTrace(int nativeRank) {
        line = ON ? new StringBuilder("fthp-rollback-steps native ").append(nativeRank) : null;
    }

    static RollbackTrace of(int nativeRank) {
        return new RollbackTrace(nativeRank);
    }

    /**
     * The CPU time (user + system, all threads, milliseconds) this process has used, with FTHP_TRACE_ROLLBACK set
     * (-1 otherwise): set beside the program's own reading once it is back in its loop, it gives the rollback's CPU
     * per process, which the cores' load does not blur as it blurs the wall clock.
     */
    static long cpuMillis() {
        return ON ? ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(-1L)
                : -1;
    }

    void mark(String step) {
        if (line != null) {
            line.append(' ').append(step).append('=').append(System.currentTimeMillis());
        }
    }

    void print() {
        if (line != null) {
            RuntimeMessages.say(line.toString());
        }
    }
}

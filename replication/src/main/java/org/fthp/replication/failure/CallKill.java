package org.fthp.replication.failure;

import org.fthp.replication.output.RuntimeMessages;

/**
 * fthp-run's {@code --kill R[:cmp|rep]#CALL}: this process dies by SIGKILL as
 * it enters its CALL-th MPI call after MPI_Init. A kill at a time lands
 * wherever a loaded machine happens to be; a kill at a call lands at the same
 * point of the program in every run, so a test can aim at a short program's
 * middle, or at its MPI_Finalize.
 */
public final class CallKill {

    /** {@code NATIVE:CALL,...}, set by fthp-run. */
    public static final String ENV = "FTHP_KILL_AT_CALL";

    private CallKill() {}

    /** The call at which native rank {@code nativeRank} dies, or 0 if it is not to. */
    public static long callFor(int nativeRank, String spec) {
        if (spec == null || spec.isBlank()) {
            return 0;
        }
        for (String pair : spec.split(",")) {
            int colon = pair.indexOf(':');
            try {
                if (colon > 0 && Integer.parseInt(pair.substring(0, colon).strip()) == nativeRank) {
                    return Long.parseLong(pair.substring(colon + 1).strip());
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(ENV + " holds NATIVE:CALL pairs, not \"" + pair + "\"");
            }
        }
        return 0;
    }

    /**
     * {@code NATIVE:GENERATION,...}: that process dies (SIGKILL) as it begins the rollback in place to that
     * generation, before it says it is ready for it: a failure during a rollback, made repeatable for tests.
     */
    public static final String IN_ROLLBACK_ENV = "FTHP_KILL_IN_ROLLBACK";

    /** Dies here if {@link #IN_ROLLBACK_ENV} names this process and the rollback to {@code generation}. */
    public static void inRollback(int nativeRank, int generation) {
        if (generation > 0 && callFor(nativeRank, System.getenv(IN_ROLLBACK_ENV)) == generation) {
            RuntimeMessages.say("fthp: native rank " + nativeRank + " kills itself beginning the rollback in place"
                    + " to generation " + generation + " (" + IN_ROLLBACK_ENV + ")");
            Fatal.killSelf();
        }
    }

    /** SIGKILL to this process, as a failure injector or the OOM killer would send it. Does not return. */
    public static void now(int nativeRank, long call) {
        RuntimeMessages.say("fthp: native rank " + nativeRank + " kills itself at MPI call " + call
                + " (--kill ...#" + call + ")");
        Fatal.killSelf();
    }
}

package org.fthp.it;

/**
 * Which part of a test's kill matrix runs: CI runs the cases that each reach a path no other case reaches;
 * {@code FTHP_KILL_MATRIX=full} (scripts/kill-matrix.sh) adds the rest: more kill points in the same programs, and
 * the programs too short for a kill to land anywhere but their first few calls.
 */
final class KillMatrix {

    static final String ENV = "FTHP_KILL_MATRIX";

    private KillMatrix() {}

    /** Whether the whole matrix runs. */
    static boolean full() {
        return "full".equals(System.getenv(ENV));
    }
}

package org.fthp.bench;

import org.fthp.checkpoint.api.Checkpoint;

/**
 * A benchmark's contribution that each copy of a replicated rank measures for itself (a JIT's compile time, a
 * clock): its twins legitimately differ there, so it is marked not compared (Checkpoint.nextContributionUncompared).
 * On Open MPI's own Java binding the FTHP-J classes are absent, and a runtime older than twin comparison (a before
 * tree in bench/p2p-before-after.sh) lacks the call: there is nothing to mark in either.
 */
final class Uncompared {

    private static final boolean AVAILABLE = available();

    private Uncompared() {}

    private static boolean available() {
        try {
            Class.forName("org.fthp.checkpoint.api.Checkpoint").getMethod("nextContributionUncompared");
            return true;
        } catch (ReflectiveOperationException | LinkageError e) {
            return false;
        }
    }

    /** The next send or collective contribution of this process is not compared between twins. */
    static void nextContribution() {
        if (AVAILABLE) {
            Checkpoint.nextContributionUncompared();
        }
    }
}

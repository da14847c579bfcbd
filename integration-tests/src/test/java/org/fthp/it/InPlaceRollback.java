package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

/**
 * What a job that recovered by rolling back in place shows, whatever rolled it back (a rank lost and a spare taking
 * it, a difference between twins, a replica restored from a spare): stderr says the job rolled back in place, nothing
 * was relaunched, and the job ran no more processes of the program than its launch started, so every survivor went
 * on in the process it was; with a reference, stdout is the failure-free run's.
 */
public final class InPlaceRollback {

    private InPlaceRollback() {}

    /**
     * {@code r} rolled back in place at least once, was never relaunched, and ran {@code launched} processes of
     * {@code program} (its ranks, replicas and spares), none started after them.
     */
    public static void assertRolledBackInPlace(MpiJob.Result r, Class<?> program, int launched) {
        assertTrue(r.stderr().contains("rolled back in place to checkpoint epoch"),
                "the job did not say it rolled back in place\n" + r.stderr());
        assertFalse(r.stderr().contains("fthp-run: restart "), "the job was relaunched\n" + r.stderr());
        assertEquals(launched, r.programProcesses(program),
                launched + " processes launched, none started after them\n" + r.stderr());
    }

    /** As {@link #assertRolledBackInPlace(MpiJob.Result, Class, int)}, and stdout is the failure-free run's. */
    public static void assertRolledBackInPlace(MpiJob.Result r, List<String> failureFree, Class<?> program,
                                               int launched) {
        assertEquals(failureFree, FailureFreeRuns.sorted(r), "stdout differs from the failure-free run\n"
                + r.stderr());
        assertRolledBackInPlace(r, program, launched);
    }
}

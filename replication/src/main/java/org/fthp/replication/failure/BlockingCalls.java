package org.fthp.replication.failure;

/**
 * The native calls that cannot be abandoned: communicator creation blocks in
 * MPI 3.1 (split, Intercomm_create, Comm_create_group), and if a member dies
 * before contributing, it never returns (Open MPI 4.1 has no ULFM to revoke
 * it). Repair checks for newer failures before each such call; a failure
 * that strikes inside one leaves this process wedged, and rather than hang
 * the job it stops after {@code -Dfthp.wedgeSeconds} (5) with a message, so
 * the coordinators end the job.
 */
public final class BlockingCalls {

    private static final long WEDGE_NANOS = (long) (Double.parseDouble(
            System.getProperty("fthp.wedgeSeconds", "5")) * 1e9);

    private static volatile long since;
    private static volatile String what;

    private BlockingCalls() {}

    /**
     * Marks the start of a blocking native call inside a repair (every
     * survivor is already in the repair, so only a death can keep it from
     * returning). Outside repairs a member may just be late, so nothing is
     * watched.
     */
    public static void enter(String call) {
        what = call;
        since = System.nanoTime();
    }

    public static void exit() {
        since = 0;
    }

    /**
     * A new failure set arrived (coordinator thread): if the thread calling
     * MPI is inside a blocking call, it may never return; check again after
     * the grace period.
     */
    static void failureArrived(int nativeRank) {
        long started = since;
        if (started == 0) {
            return;
        }
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(WEDGE_NANOS / 1_000_000);
            } catch (InterruptedException e) {
                return;
            }
            if (since == started) {
                Fatal.stop("native rank " + nativeRank + ": a process failed while " + what
                        + " was rebuilding communicators; Open MPI 4.1 cannot abandon that call, so this process"
                        + " stops (the job ends unless every rank keeps a copy)", 72);
            }
        }, "fthp-wedge-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}

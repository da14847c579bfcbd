package org.fthp.replication.failure;

import org.fthp.replication.output.RuntimeMessages;

/**
 * The native calls that cannot be abandoned: communicator creation blocks in
 * MPI 3.1 (split, Intercomm_create, Comm_create_group), and if a member dies
 * before contributing, it never returns (Open MPI 4.1 has no ULFM to revoke
 * it). Before each such call the members say they are about to enter, and
 * having said so wait for each other whatever else fails (Repair,
 * CommCreation), so a death before that is folded into a repair, and a
 * death of someone outside the call does not keep its members from it. A
 * death of a member inside the call, or between its readiness round and
 * the call, leaves this process wedged. Rather than hang the job it fails
 * after {@code -Dfthp.wedgeSeconds} (5) with a message, as a killed process
 * does: a rank with another copy goes on there, and the coordinators end the
 * job if a rank lost every copy.
 */
public final class BlockingCalls {

    /**
     * {@code NATIVE:K,...}: that process dies (SIGKILL) inside its K-th
     * blocking communicator creation after MPI_Init, once the others have
     * said READY and are entering the call: what a death in the middle of
     * one does, made repeatable for tests (set through mpirun's {@code -x}).
     */
    public static final String KILL_ENV = "FTHP_KILL_IN_CREATION";

    private static final long WEDGE_NANOS = (long) (Double.parseDouble(
            System.getProperty("fthp.wedgeSeconds", "5")) * 1e9);

    private final int nativeRank;
    private long entered;
    private long killAt;

    private volatile long since;
    private volatile String what;
    /** The native ranks the call waits for. */
    private volatile int[] members;

    public BlockingCalls(int nativeRank) {
        this.nativeRank = nativeRank;
    }

    /** Marks the start of a blocking native call that waits for {@code involved} (native ranks). */
    public void enter(String call, int[] involved) {
        if (killAt != 0 && ++entered == killAt) {
            RuntimeMessages.say("fthp: native rank " + nativeRank + " kills itself entering " + call + ", its"
                    + " blocking communicator creation " + killAt + " (" + KILL_ENV + ")");
            Fatal.killSelf();
        }
        what = call;
        members = involved;
        since = System.nanoTime();
    }

    /** After MPI_Init: this process dies entering its {@code k}-th blocking creation from now (0: never). */
    public void killAtEntry(long k) {
        entered = 0;
        killAt = k;
    }

    public void exit() {
        if (TRACE) {
            RuntimeMessages.say("fthp-repair[" + nativeRank + "] @" + System.nanoTime() / 1000 % 100_000_000 + " " + what + " " + java.util.Arrays.toString(members)
                    + " took " + (System.nanoTime() - since) / 1000 + " us");
        }
        since = 0;
    }

    /** With FTHP_TRACE_REPAIR set, how long each blocking call took, on stderr. */
    private static final boolean TRACE = System.getenv("FTHP_TRACE_REPAIR") != null;

    /**
     * A new failure set arrived (coordinator thread): if the thread calling
     * MPI is inside a blocking call that waits for one of the dead, it may
     * never return; check again after the grace period. (A member that is
     * merely late is no reason: nothing is watched without a death.)
     */
    void failureArrived(java.util.Set<Integer> dead) {
        long started = since;
        if (started == 0) {
            return;
        }
        if (!waitsForAnyOf(members, dead)) {
            return;
        }
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(WEDGE_NANOS / 1_000_000);
            } catch (InterruptedException e) {
                return;
            }
            if (since == started) {
                Fatal.dieAsFailed("native rank " + nativeRank + ": a process died while " + what
                        + " waited for it; Open MPI 4.1 cannot abandon that call, so this copy fails too"
                        + " (the job ends unless every rank keeps a copy)");
            }
        }, "fthp-wedge-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** A plain loop, not a stream: it runs once per failure, cold, on the thread that wakes the repair. */
    private static boolean waitsForAnyOf(int[] members, java.util.Set<Integer> dead) {
        for (int m : members) {
            if (dead.contains(m)) {
                return true;
            }
        }
        return false;
    }
}

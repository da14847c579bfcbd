package org.fthp.replication.creation;

import org.fthp.replication.control.ControlComm;
import org.fthp.replication.progress.BackoffIdleStrategy;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.tags.InternalTags;

/**
 * Before each blocking creation of a rollback's first communicators: the processes involved meet in a nonblocking
 * round on the generation's control communicator first, waiting there with an idle strategy that gives the core
 * away. Inside the native call a process that waits for a late one spins; with more processes than cores those
 * spins take the late ones' time and each creation costs many scheduler slices, whereas a call every member
 * enters together completes in one or two.
 */
public final class GenerationEntry implements BlockingCallEntry {

    private final ControlComm control;
    private final int nativeRank;

    public GenerationEntry(ControlComm control, int nativeRank) {
        this.control = control;
        this.nativeRank = nativeRank;
    }

    @Override
    public void beforeBlockingCall(int[] involved) {
        if (involved.length < 2) {
            return;
        }
        IdleStrategy idle = new BackoffIdleStrategy();
        // every pair meets in the same order (their creations are collective), so one tag serves every round
        try (ArrivalRound round = ArrivalRounds.among(control, nativeRank, involved,
                InternalTags.GENERATION_ENTRY.first(), 0)) {
            while (!round.heardFromAll()) {
                idle.idle();
            }
        }
    }
}

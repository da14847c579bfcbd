package org.fthp.replication.runtime;

import java.util.function.Supplier;

import org.fthp.coordinator.wire.Message;
import org.fthp.empi.Empi;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.creation.ArrivalRound;
import org.fthp.replication.creation.ArrivalRounds;
import org.fthp.replication.failure.Fatal;
import org.fthp.replication.progress.BackoffIdleStrategy;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.tags.InternalTags;

/**
 * Before a rollback's blocking native calls (the new generation's communicators, made with MPI_Comm_create_group,
 * which nothing can abandon once a member is in it): every copy of the rollback's layout says it is here, on the
 * native COMM_WORLD under the generation's tag, and waits until all the others have. A process of the rollback
 * that fails before saying so keeps the others out of those calls: the coordinators supersede the rollback with
 * one of the next generation that leaves it out (coordinator.spares.RollbackPlanner), and whoever still waits here
 * leaves for that one. A death between saying so and the calls still wedges the others (failure.BlockingCalls),
 * as in a repair.
 */
final class RollbackReadiness {

    /** The native COMM_WORLD as the round's communicator: every process is there, numbered by native rank. */
    private static final ControlComm WORLD = ControlComm.ofWorld(Empi.COMM_WORLD);

    private RollbackReadiness() {}

    /**
     * Waits until every copy of {@code r}'s layout is ready for its blocking calls, moving on to each newer
     * rollback {@code newest} tells of meanwhile (a process of the one before failed); returns the one every copy
     * is ready for. A process the rollback leaves out is dead to the coordinators: it stops.
     */
    static Message.Rollback settle(Message.Rollback r, int nativeRank, Supplier<Message.Rollback> newest) {
        while (true) {
            if (ReplicaLayout.of(r.cmpNatives(), r.repNatives()).copyOf(nativeRank) == null) {
                Fatal.dieAsFailed("the coordinators consider native rank " + nativeRank + " dead; it stops");
            }
            Message.Rollback newer = await(r, nativeRank, newest);
            if (newer == null) {
                return r;
            }
            r = newer;
        }
    }

    /**
     * Waits until every copy of {@code rollback}'s layout is here; returns null then, or the newer rollback
     * {@code newest} tells of first (this round is left: its receives cancelled, nothing waited on).
     */
    private static Message.Rollback await(Message.Rollback rollback, int nativeRank, Supplier<Message.Rollback> newest) {
        int[] copies = ReplicaLayout.of(rollback.cmpNatives(), rollback.repNatives()).eworld();
        IdleStrategy idle = new BackoffIdleStrategy();
        try (ArrivalRound round = ArrivalRounds.among(WORLD, nativeRank, copies,
                InternalTags.ROLLBACK_READY.tag(rollback.generation()), rollback.generation())) {
            while (!round.heardFromAll()) {
                Message.Rollback n = newest.get();
                if (n != null && n.generation() > rollback.generation()) {
                    return n;
                }
                idle.idle();
            }
            return null;
        }
    }
}

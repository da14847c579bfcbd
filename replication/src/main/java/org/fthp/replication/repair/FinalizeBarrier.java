package org.fthp.replication.repair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.creation.ControlExchange;
import org.fthp.replication.progress.BackoffIdleStrategy;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.routing.Membership;
import org.fthp.replication.tags.InternalTags;

/**
 * MPI_Finalize of a replicated job: nobody enters the native MPI_Finalize
 * while another process may still need it in a repair.
 *
 * <p>Replicas run behind their twins, so a computational copy often reaches
 * MPI_Finalize while a replica is still communicating. If a process dies
 * then, the survivors must repair, and a repair needs every survivor; one
 * waiting inside the native MPI_Finalize never answers, and the job hangs.
 * So each process first tells every live process it has entered Finalize
 * (one message each way, tagged by the epoch of its structures) and waits
 * for all of theirs, repairing meanwhile like any other call. A repair
 * changes the epoch and starts a new round.
 *
 * <p>Whoever has everyone's message knows that every process had finished
 * its communication: no repair can be needed any more, whatever dies next.
 * Before it leaves it says so to all; a process that gets that message
 * (even in the middle of a repair for a death after the round) leaves too,
 * instead of waiting for the one that left.
 */
public final class FinalizeBarrier {

    private static final int LEFT_TAG = InternalTags.FINALIZE_LEFT.first();

    private final Repair repair;
    private final Membership membership;
    /** The engine's own communicator of this generation. */
    private final ControlComm controlComm;
    /** Its turns may repair, which ends a round. */
    private final DutyCycle duty;

    public FinalizeBarrier(Repair repair, Membership membership, ControlComm controlComm, DutyCycle duty) {
        this.repair = repair;
        this.membership = membership;
        this.controlComm = controlComm;
        this.duty = duty;
    }

    /** Returns when this process may enter the native MPI_Finalize. */
    public void await() {
        ControlComm control = controlComm;
        // never freed: the LEFT receive and sends stay posted until exit
        Arena arena = Arena.ofShared();
        MemorySegment leftRequest = Empi.allocateHandles(arena, 1);
        MemorySegment leftFlag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment leftStatus = arena.allocate(Empi.STATUS_BYTES);
        Empi.irecv(arena.allocate(8), 8, Empi.BYTE, Empi.ANY_SOURCE, LEFT_TAG, control.handle(), leftRequest);
        repair.releaseWhen(() -> {
            Empi.test(leftRequest, leftFlag, leftStatus);
            return leftFlag.get(ValueLayout.JAVA_INT, 0) != 0;
        });
        IdleStrategy idle = new BackoffIdleStrategy();
        while (!repair.over()) {
            long epoch = repair.appliedEpoch();
            int[] live = membership.layout().eworld();
            boolean[] left = {false};
            try (ControlExchange round = new ControlExchange(control, membership.nativeRank(), live,
                    InternalTags.FINALIZE_ENTERED.tag(epoch), epoch)) {
                // each turn of the duty may repair, which changes the epoch and ends this round
                DutyCycle.await(() -> {
                    if (repair.over() || repair.appliedEpoch() != epoch) {
                        return true;
                    }
                    left[0] = round.heardFromAll() && !repair.pending();
                    return left[0];
                }, duty::doWork, idle);
                if (left[0]) {
                    tellLeaving(arena, control, live);
                    return;
                }
            }
            // a repair changed who is live: a new round among them, under the new epoch's tag
        }
    }

    /** Fire and forget: the receivers may be gone by now, and nothing waits on a send to the dead. */
    private void tellLeaving(Arena arena, ControlComm control, int[] live) {
        MemorySegment payload = arena.allocate(8);
        MemorySegment requests = Empi.allocateHandles(arena, live.length);
        for (int k = 0; k < live.length; k++) {
            if (live[k] != membership.nativeRank()) {
                Empi.isend(payload, 8, Empi.BYTE, control.rank(live[k]), LEFT_TAG, control.handle(),
                        Empi.handleSlot(requests, k));
            }
        }
    }
}

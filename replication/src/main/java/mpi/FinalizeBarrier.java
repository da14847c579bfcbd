package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.repair.ControlExchange;

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
final class FinalizeBarrier {

    /** "Entered Finalize", by epoch: after the repair's agreement (0x4000) and readiness (0x8000) ranges. */
    private static final int ENTERED_TAG_BASE = 0xC000;
    private static final int LEFT_TAG = 0xE000;

    private FinalizeBarrier() {}

    /** Returns when this process may enter the native MPI_Finalize. */
    static void await() {
        long control = Session.controlComm();
        // never freed: the LEFT receive and sends stay posted until exit
        Arena arena = Arena.ofShared();
        MemorySegment leftRequest = Empi.allocateHandles(arena, 1);
        MemorySegment leftFlag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment leftStatus = arena.allocate(Empi.STATUS_BYTES);
        Empi.irecv(arena.allocate(8), 8, Empi.BYTE, Empi.ANY_SOURCE, LEFT_TAG, control, leftRequest);
        Repair.releaseWhen(() -> {
            Empi.test(leftRequest, leftFlag, leftStatus);
            return leftFlag.get(ValueLayout.JAVA_INT, 0) != 0;
        });
        IdleStrategy idle = new IdleStrategy();
        while (!Repair.over()) {
            long epoch = Repair.appliedEpoch();
            int[] live = Session.layout().eworld();
            try (ControlExchange round = new ControlExchange(control, Session.nativeRank(), live,
                    ENTERED_TAG_BASE + (int) (epoch & 0x1fff), epoch)) {
                idle.reset();
                while (!Repair.over() && Repair.appliedEpoch() == epoch) {
                    Session.progress();
                    if (round.heardFromAll() && !Repair.pending()) {
                        tellLeaving(arena, control, live);
                        return;
                    }
                    idle.idle();
                }
            }
            // a repair changed who is live: a new round among them, under the new epoch's tag
        }
    }

    /** Fire and forget: the receivers may be gone by now, and nothing waits on a send to the dead. */
    private static void tellLeaving(Arena arena, long control, int[] live) {
        MemorySegment payload = arena.allocate(8);
        MemorySegment requests = Empi.allocateHandles(arena, live.length);
        for (int k = 0; k < live.length; k++) {
            if (live[k] != Session.nativeRank()) {
                Empi.isend(payload, 8, Empi.BYTE, live[k], LEFT_TAG, control,
                        requests.asSlice((long) Empi.HANDLE_BYTES * k, Empi.HANDLE_BYTES));
            }
        }
    }
}

package org.fthp.replication.creation;

import org.fthp.empi.Empi;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.failure.BlockingCalls;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.tags.InternalTags;

/**
 * Makes the control communicator of each generation of a replicated job (control.ControlComm): at launch a
 * duplicate of the native COMM_WORLD, after each rollback in place a new one over the copies of the rollback's
 * layout, made by them only (the spare that took the lost rank among them, the dead and the idle spares not).
 */
public final class ControlComms {

    private ControlComms() {}

    /** Generation 0's, at start-up: every process of the native world is alive and inside MPI_Init. */
    public static ControlComm atLaunch() {
        return ControlComm.ofWorld(StructureBuilder.dupBlocking(Empi.COMM_WORLD));
    }

    /**
     * Generation {@code generation}'s, over every copy of {@code layout} in eworld order, each of which makes it
     * at the same point of its rollback (before the generation's other communicators, in the same order). The
     * call blocks until all of them are in it; a death inside it is the wedge {@link BlockingCalls} ends.
     */
    public static ControlComm ofGeneration(ReplicaLayout layout, int nativeSize, int generation,
                                           BlockingCalls blockingCalls) {
        int[] copies = layout.eworld();
        long comm = StructureBuilder.createGroupBlocking(Empi.COMM_WORLD, copies,
                InternalTags.CONTROL_GROUPS.tag(generation), blockingCalls);
        return ControlComm.ofGroup(comm, copies, nativeSize);
    }
}

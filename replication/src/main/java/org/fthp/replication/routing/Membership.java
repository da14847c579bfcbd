package org.fthp.replication.routing;

import org.fthp.coordinator.event.Role;

/**
 * Who this process is in the job now: which native process holds each copy of each logical rank, this process's
 * role, and the failure set both reflect. A repair changes them, and nothing else does; every other part (the
 * communicator builder, the acknowledgements, the program's end, the facade) reads them here, so all see one answer.
 *
 * <p>Touched only by the thread holding the engine's gate.
 */
public final class Membership {

    private final int nativeRank;
    private final int logicalRank;
    private ReplicaLayout layout;
    private Role role;
    /** The failure set the layout, and the communicators built over it, reflect (0: none). */
    private long appliedEpoch;

    public Membership(int nativeRank, ReplicaLayout layout) {
        this.nativeRank = nativeRank;
        this.layout = layout;
        ReplicaLayout.Copy me = layout.copyOf(nativeRank);
        this.logicalRank = me.logical();
        this.role = me.role();
    }

    public int nativeRank() { return nativeRank; }

    /** The logical rank this process holds a copy of; a repair never changes it. */
    public int logicalRank() { return logicalRank; }

    public ReplicaLayout layout() { return layout; }

    public Role role() { return role; }

    /** Whether some rank has a replica now. */
    public boolean replicated() { return layout.replicas() > 0; }

    public long appliedEpoch() { return appliedEpoch; }

    /**
     * After a repair: who holds which copy now, and this process's role. Returns whether this process was just
     * promoted (a replica whose computational twin died computes from now on).
     */
    public boolean adopt(ReplicaLayout repaired) {
        Role before = role;
        layout = repaired;
        role = repaired.copyOf(nativeRank).role();
        return before == Role.REP && role == Role.CMP;
    }

    /** The repair of failure set {@code epoch} completed: the layout and the communicators reflect it. */
    public void applied(long epoch) {
        appliedEpoch = epoch;
    }
}

package org.fthp.replication.creation;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.fthp.replication.control.ControlComm;
import org.fthp.replication.failure.Coordination;
import org.fthp.replication.failure.FailureWatch;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.LiveComms;
import org.fthp.replication.tags.InternalTags;

/**
 * MPI_Comm_free in a replicated job: no copy lets go of a communicator while
 * another copy of one of its members may still need it in a repair.
 *
 * <p>Replicas run behind their twins, so a computational copy often frees a
 * communicator a replica is still using. If a copy of a member then dies, the
 * repair rebuilds the communicator over its live copies with blocking
 * creation calls; a copy that has already freed it never joins them, and the
 * others wait for it for good (a soak run hung so). So a free is one round
 * among every live copy of every member on the control communicator, under
 * a tag of the communicator's id: "I have entered the free". A copy lets go
 * once it has heard from every live one (a dead one is excused); until then
 * the communicator is live, and a repair rebuilds it like any other.
 *
 * <p>Whoever has heard from all knows that every live copy had finished its
 * communication on the communicator. A repair that finds it held by some
 * copies and not by others (the round completed on some, its last messages
 * still on the way to the rest) lets it go on the holders instead of
 * rebuilding it ({@link #abandon}): every holder is inside this free, and its
 * round completes from messages already sent. Communicators none of whose
 * members has a replica skip the round: a death there loses a rank, and no
 * repair follows.
 */
public final class CommRelease {

    private final int nativeRank;
    /** The engine's own communicator of this generation; NONE without replicas. */
    private final ControlComm controlComm;
    private final Coordination coordination;
    private final LiveComms comms;
    private final OpContext ops;
    private final StructureBuilder structures;
    private final DutyCycle duty;
    /** The communicators this process is freeing now (a program may free from several threads). */
    private final Set<CommRef> freeing = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Let go of by a repair while being freed: their natives hold a dead copy; abandoned, never freed. */
    private final Set<CommRef> abandoned = Collections.newSetFromMap(new IdentityHashMap<>());

    public CommRelease(int nativeRank, ControlComm controlComm, Coordination coordination, LiveComms comms, OpContext ops,
                       StructureBuilder structures, DutyCycle duty) {
        this.nativeRank = nativeRank;
        this.controlComm = controlComm;
        this.coordination = coordination;
        this.comms = comms;
        this.ops = ops;
        this.structures = structures;
        this.duty = duty;
    }

    /** Frees the communicator {@code ref} points to (the program's thread, gate held); {@code ref} is cleared. */
    public void free(CommRef ref) {
        CommStructure s = ref.get();
        if (needsRound(s)) {
            freeing.add(ref);
            FailureWatch watch = coordination.watch();
            try (ControlExchange round = new ControlExchange(controlComm, nativeRank,
                    s.natives().copies(), InternalTags.COMM_FREE.tag(s.commId()), s.commId())) {
                // each turn of the duty may repair: that rebuilds the communicator (ref re-pointed) or abandons it
                duty.await(() -> round.heardFromAll(r -> watch.latest().deadNativeRanks().contains(r)));
            } finally {
                freeing.remove(ref);
            }
        }
        CommStructure now = ref.get();
        if (abandoned.remove(ref)) {
            structures.abandon(now);
        } else {
            structures.free(now);
            comms.remove(ref);
        }
        ops.collectiveLogs().forget(now.commId());
        ref.clear();
    }

    private boolean needsRound(CommStructure s) {
        if (coordination.watch() == null || !controlComm.exists()) {
            return false;
        }
        int members = s.isInter() ? s.size() + s.remoteSize() : s.size();
        return s.natives().copies().length > members;
    }

    /** Whether this process is inside the free of {@code ref}. */
    public boolean isFreeing(CommRef ref) {
        return freeing.contains(ref);
    }

    /**
     * From a repair: another copy has already let go of {@code ref}, which
     * this process is freeing; it is not rebuilt, and the free ends without
     * touching its natives.
     */
    public void abandon(CommRef ref) {
        abandoned.add(ref);
        comms.remove(ref);
    }
}

package org.fthp.replication.collective;

import org.fthp.empi.Empi;
import org.fthp.replication.structure.CommStructure;

/** Who plays which part in a rooted collective (on an intercommunicator the root group says MPI_ROOT). */
public final class Roots {

    private Roots() {}

    /** Whether this process is the root. */
    public static boolean isRoot(CommStructure s, int root) {
        return s.isInter() ? root == Empi.ROOT : s.rank() == root;
    }

    /** Whether this process contributes data (on an intercommunicator: the other group). */
    public static boolean contributes(CommStructure s, int root) {
        return !s.isInter() || root != Empi.ROOT && root != Empi.PROC_NULL;
    }
}

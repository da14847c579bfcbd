package org.fthp.replication.repair;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;

/**
 * Which survivor still holds which of the communicators a repair touches
 * (COMM_WORLD aside, rebuilt first: this is told over its new eworld). A
 * copy that has finished freeing one ({@code structure.CommRelease}) no
 * longer holds it, and must not be waited for in its rebuild: the repair
 * lets go of it instead. One exchange of communicator ids among survivors.
 */
final class HeldComms {

    private final Map<Integer, Set<Integer>> heldByNative;

    private HeldComms(Map<Integer, Set<Integer>> heldByNative) {
        this.heldByNative = heldByNative;
    }

    /** Tells every survivor ({@code eworld}, native ranks by index of {@code comm}) which of {@code touched} this process holds. */
    static HeldComms exchange(BlobExchange exchange, int[] eworld, long comm, List<CommRef> touched) {
        ByteBuffer mine = ByteBuffer.allocate(Integer.BYTES * touched.size());
        touched.forEach(c -> mine.putInt(c.get().commId()));
        byte[][] out = new byte[eworld.length][];
        java.util.Arrays.fill(out, mine.array());
        byte[][] in = exchange.exchange(out, comm);
        Map<Integer, Set<Integer>> heldBy = new HashMap<>();
        for (int i = 0; i < eworld.length; i++) {
            ByteBuffer theirs = ByteBuffer.wrap(in[i]);
            Set<Integer> ids = new HashSet<>();
            while (theirs.hasRemaining()) {
                ids.add(theirs.getInt());
            }
            heldBy.put(eworld[i], ids);
        }
        return new HeldComms(heldBy);
    }

    /** A live copy of a member of {@code s} that no longer holds it, or -1 when every one does. */
    int firstWithout(CommStructure s, Set<Integer> live) {
        for (int copy : s.current().natives().copies()) {
            if (live.contains(copy) && !heldByNative.get(copy).contains(s.commId())) {
                return copy;
            }
        }
        return -1;
    }
}

package org.fthp.replication.repair;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fthp.replication.control.ControlComm;
import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;

/**
 * Which survivor still holds which of the communicators a repair touches
 * (COMM_WORLD aside, rebuilt first: this is told over its new eworld). A
 * copy that has finished freeing one ({@code structure.CommRelease}) no
 * longer holds it, and must not be waited for in its rebuild: the repair
 * lets go of it instead. The ids go with the repair's agreement (the epoch,
 * then how many ids, then the ids, in one fixed-size message), or when one
 * survivor holds more than that carries, in an exchange of their own once
 * COMM_WORLD is rebuilt.
 */
final class HeldComms {

    private final Map<Integer, Set<Integer>> heldByNative;

    /** The size of every agreement message: the epoch, a count, and up to {@link #AGREEMENT_IDS} ids. */
    static final int AGREEMENT_BYTES = 256;
    private static final int AGREEMENT_IDS = (AGREEMENT_BYTES - Long.BYTES - Integer.BYTES) / Integer.BYTES;
    /** The count of a survivor whose ids did not fit. */
    private static final int TOO_MANY = -1;

    private HeldComms(Map<Integer, Set<Integer>> heldByNative) {
        this.heldByNative = heldByNative;
    }

    /** This survivor's agreement message: {@code epoch}, then the communicator ids {@code held} if they fit. */
    static byte[] agreementMessage(long epoch, int[] held) {
        boolean fits = held.length <= AGREEMENT_IDS;
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES + Integer.BYTES + (fits ? Integer.BYTES * held.length : 0))
                .order(ByteOrder.nativeOrder());
        b.putLong(epoch).putInt(fits ? held.length : TOO_MANY);
        if (fits) {
            for (int id : held) {
                b.putInt(id);
            }
        }
        return b.array();
    }

    /**
     * Who holds what, from this survivor's agreement message ({@code mine},
     * native rank {@code me}) and every other survivor's ({@code messages[k]}
     * from native rank {@code peers[k]}); null when one's ids did not fit.
     */
    static HeldComms fromAgreement(int me, byte[] mine, int[] peers, ByteBuffer[] messages) {
        Map<Integer, Set<Integer>> heldBy = new HashMap<>();
        Set<Integer> own = idsOf(ByteBuffer.wrap(mine).order(ByteOrder.nativeOrder()));
        if (own == null) {
            return null;
        }
        heldBy.put(me, own);
        for (int k = 0; k < peers.length; k++) {
            Set<Integer> ids = idsOf(messages[k]);
            if (ids == null) {
                return null;
            }
            heldBy.put(peers[k], ids);
        }
        return new HeldComms(heldBy);
    }

    /** The ids of one agreement message, or null if they did not fit. */
    private static Set<Integer> idsOf(ByteBuffer message) {
        message.getLong();
        int n = message.getInt();
        if (n == TOO_MANY) {
            return null;
        }
        if (n < 0 || n > AGREEMENT_IDS) {
            throw new IllegalStateException("corrupt repair agreement: " + n + " communicators");
        }
        Set<Integer> ids = new HashSet<>();
        for (int i = 0; i < n; i++) {
            ids.add(message.getInt());
        }
        return ids;
    }

    /**
     * Tells every survivor ({@code eworld}, native ranks; this process is
     * {@code me}) which of {@code touched} this process holds, on the control
     * communicator {@code comm} with {@code tag}.
     */
    static HeldComms exchange(BlobExchange exchange, int[] eworld, int me, ControlComm comm, int tag,
                              List<CommRef> touched) {
        ByteBuffer mine = ByteBuffer.allocate(Integer.BYTES * touched.size());
        touched.forEach(c -> mine.putInt(c.get().commId()));
        byte[][] out = new byte[eworld.length][];
        java.util.Arrays.fill(out, mine.array());
        byte[][] in = exchange.exchange(out, eworld, me, comm, tag);
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

    /** Whether native rank {@code copy} said it holds communicator {@code commId}. */
    boolean holds(int copy, int commId) {
        return heldByNative.get(copy).contains(commId);
    }

    /** A live copy of a member of {@code s} that no longer holds it, or -1 when every one does. */
    int firstWithout(CommStructure s, Set<Integer> live) {
        for (int copy : s.current().natives().copies()) {
            if (live.contains(copy) && !holds(copy, s.commId())) {
                return copy;
            }
        }
        return -1;
    }
}

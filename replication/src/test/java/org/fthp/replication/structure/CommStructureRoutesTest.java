package org.fthp.replication.structure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.fthp.coordinator.event.Role;
import org.fthp.replication.routing.ReplicaLayout;
import org.fthp.replication.twins.TwinChannel;
import org.fthp.replication.twins.TwinLink;
import org.junit.jupiter.api.Test;

/**
 * The endpoint tables a structure precomputes, checked against each other
 * with fake native handles (no MPI): for every N up to 7, every M up to N
 * and every pair of ranks, each native message a copy of the source sends
 * lands at a copy of the destination that expects exactly that source on
 * exactly that communicator, and every live copy of the destination gets the
 * message once.
 */
class CommStructureRoutesTest {

    // fake handles: one per native communicator, internal twins offset
    private static final long CMP = 11;
    private static final long REP = 12;
    private static final long CMP_REP = 13;
    private static final long NO_REP = 14;
    private static final long NO_REP_TO_REP = 15;
    private static final long INTERNAL = 100;

    /** One copy of a logical rank and its structure of a COMM_WORLD-like communicator. */
    record Copy(int logical, Role role, CommStructure s) {}

    private static List<Copy> copies(int n, int m) {
        boolean[] replicated = new boolean[n];
        for (int l = 0; l < m; l++) {
            replicated[l] = true;
        }
        ReplicaLayout layout = ReplicaLayout.ofMembers(replicated);
        int[] members = new int[n];
        for (int l = 0; l < n; l++) {
            members[l] = l;
        }
        List<Copy> out = new ArrayList<>();
        for (int l = 0; l < n; l++) {
            boolean noRep = !layout.hasReplica(l);
            boolean anyNoRep = m < n;
            NativeComms cmp = new NativeComms(1, CMP, CMP + INTERNAL, 0, 0, m > 0 ? CMP_REP : 0,
                    noRep ? NO_REP : 0, noRep && m > 0 ? NO_REP_TO_REP : 0,
                    noRep && m > 0 ? NO_REP_TO_REP + INTERNAL : 0, CMP,
                    TwinChannel.ofWorld(CMP_REP, layout, l, Role.CMP), new int[0]);
            out.add(new Copy(l, Role.CMP, new CommStructure(1, l, members, null, Role.CMP, layout, l, 0, cmp)));
            if (layout.hasReplica(l)) {
                NativeComms rep = new NativeComms(1, 0, 0, REP, REP + INTERNAL, CMP_REP, 0,
                        anyNoRep ? NO_REP_TO_REP : 0, anyNoRep ? NO_REP_TO_REP + INTERNAL : 0, 0,
                        TwinChannel.ofWorld(CMP_REP, layout, l, Role.REP), new int[0]);
                out.add(new Copy(l, Role.REP, new CommStructure(1, l, members, null, Role.REP, layout, l, 0, rep)));
            }
        }
        return out;
    }

    /** A copy's rank in a fake communicator (for an intercommunicator: in its own group). */
    private static int rankIn(ReplicaLayout layout, Copy c, long comm) {
        if (comm == CMP) {
            return c.logical();
        }
        if (comm == REP) {
            return layout.repRank(c.logical());
        }
        if (comm == NO_REP_TO_REP) {
            // one process per member, in member order
            return c.logical();
        }
        throw new AssertionError("no rank in " + comm);
    }

    /** Whether a copy can receive on {@code comm} from the sender's side. */
    private static boolean reachable(Copy sender, Copy receiver, long comm) {
        if (comm == NO_REP_TO_REP) {
            // the unreplicated computational copies and the replicas: the channel carries one to the other
            return sender.role() != receiver.role();
        }
        return comm == CMP ? receiver.role() == Role.CMP : receiver.role() == Role.REP;
    }

    @Test
    void everyLiveCopyOfTheDestinationGetsEachMessageOnceWhereItExpectsIt() {
        for (int n = 1; n <= 7; n++) {
            for (int m = 0; m <= n; m++) {
                boolean[] replicated = new boolean[n];
                for (int l = 0; l < m; l++) {
                    replicated[l] = true;
                }
                ReplicaLayout layout = ReplicaLayout.ofMembers(replicated);
                List<Copy> all = copies(n, m);
                for (int s = 0; s < n; s++) {
                    for (int d = 0; d < n; d++) {
                        int[] received = new int[2];
                        for (Copy sender : all) {
                            if (sender.logical() != s) {
                                continue;
                            }
                            for (Endpoint e : new Endpoint[] {sender.s().sendPrimary(d), sender.s().sendExtra(d)}) {
                                if (e == null) {
                                    continue;
                                }
                                assertEquals(e.comm() + INTERNAL, e.internal(), "internal twin of the route");
                                int hits = 0;
                                for (Copy receiver : all) {
                                    if (receiver.logical() != d || !reachable(sender, receiver, e.comm())
                                            || rankIn(layout, receiver, e.comm()) != e.rank()) {
                                        continue;
                                    }
                                    hits++;
                                    Endpoint back = receiver.s().receiveFrom(s);
                                    assertEquals(e.comm(), back.comm(), "N=" + n + " M=" + m + " " + s + "->" + d);
                                    assertEquals(rankIn(layout, sender, e.comm()), back.rank(),
                                            "N=" + n + " M=" + m + " " + s + "->" + d + ": receiver expects another rank");
                                    received[receiver.role().ordinal()]++;
                                }
                                assertEquals(1, hits, "N=" + n + " M=" + m + " " + s + "->" + d + " lands once");
                            }
                        }
                        assertEquals(1, received[0], "N=" + n + " M=" + m + " " + s + "->" + d + " at the CMP copy");
                        assertEquals(layout.hasReplica(d) ? 1 : 0, received[1],
                                "N=" + n + " M=" + m + " " + s + "->" + d + " at the replica");
                    }
                }
            }
        }
    }

    @Test
    void twinLinksPairComputationalCopiesWithTheirReplicas() {
        for (int n = 1; n <= 7; n++) {
            for (int m = 0; m <= n; m++) {
                for (Copy c : copies(n, m)) {
                    TwinLink t = c.s().twin();
                    if (c.logical() >= m) {
                        assertNull(t, "no twin without a replica");
                        continue;
                    }
                    assertNotNull(t);
                    assertEquals(CMP_REP, t.channel().comm());
                    // the twin communicator is ranked as eworld: n computational copies, then the replicas (the
                    // first m ranks here)
                    assertEquals(c.role() == Role.CMP ? n + c.logical() : c.logical(), t.channel().twinRank());
                    assertEquals(c.role() == Role.REP, t.follows());
                    assertEquals(c.role() == Role.REP, c.s().follows());
                }
            }
        }
    }

    @Test
    void onlyComputationalCopiesReceiveFromAnySource() {
        for (Copy c : copies(4, 2)) {
            assertTrue((c.s().receiveAny() != null) == (c.role() == Role.CMP));
        }
    }
}

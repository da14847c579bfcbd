package org.fthp.replication.routing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.Role;
import org.junit.jupiter.api.Test;

class ReplicaLayoutTest {

    /** A message as it arrives: at which native process, over which link, from which rank of that link. */
    record Arrival(int receiverNative, Link link, int senderRankOnLink) {}

    /** Checks that for every pair of logical ranks each live copy of the destination gets exactly what it expects. */
    static void assertRoutesConsistent(ReplicaLayout layout) {
        int n = layout.size();
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < n; d++) {
                List<Arrival> sent = new ArrayList<>();
                for (Role role : roles(layout, s)) {
                    for (Route r : layout.sendRoutes(s, d, role)) {
                        sent.add(arrival(layout, s, role, r));
                    }
                }
                Set<Arrival> expected = new HashSet<>();
                for (Role role : roles(layout, d)) {
                    Route r = layout.receiveRoute(s, d, role);
                    int receiver = role == Role.CMP ? layout.cmpNative(d) : layout.repNative(d);
                    expected.add(new Arrival(receiver, r.link(), r.peer()));
                }
                assertEquals(expected, new HashSet<>(sent), layout + ": " + s + " -> " + d);
                assertEquals(expected.size(), sent.size(), layout + ": each copy of " + d + " gets the message once");
            }
        }
    }

    private static List<Role> roles(ReplicaLayout layout, int logical) {
        return layout.hasReplica(logical) ? List.of(Role.CMP, Role.REP) : List.of(Role.CMP);
    }

    /** Where a send lands and how its receiver names the sender. */
    private static Arrival arrival(ReplicaLayout layout, int s, Role role, Route r) {
        return switch (r.link()) {
            case CMP -> new Arrival(layout.cmpNative(r.peer()), Link.CMP, s);
            case REP -> new Arrival(repNativeOfRepRank(layout, r.peer()), Link.REP, layout.repRank(s));
            // one process per member, in member order: the rank is the logical rank on both sides
            case CMP_NO_REP_TO_REP -> new Arrival(layout.repNative(r.peer()), Link.REP_FROM_CMP_NO_REP, s);
            case REP_FROM_CMP_NO_REP -> throw new AssertionError("a receive-side link used for sending");
        };
    }

    private static int repNativeOfRepRank(ReplicaLayout layout, int repRank) {
        for (int l = 0; l < layout.size(); l++) {
            if (layout.repRank(l) == repRank) {
                return layout.repNative(l);
            }
        }
        throw new AssertionError("no replica with REP rank " + repRank);
    }

    @Test
    void launchLayoutsRouteConsistentlyForEveryReplicaCount() {
        for (int n = 1; n <= 7; n++) {
            for (int m = 0; m <= n; m++) {
                ReplicaLayout layout = ReplicaLayout.launch(n, m);
                assertEquals(m, layout.replicas());
                assertEquals(n + m, layout.eworld().length);
                assertRoutesConsistent(layout);
            }
        }
    }

    @Test
    void launchPutsReplicasAfterTheComputationalCopies() {
        ReplicaLayout layout = ReplicaLayout.launch(4, 2);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, layout.eworld());
        assertEquals(new ReplicaLayout.Copy(1, Role.REP), layout.copyOf(5));
        assertEquals(new ReplicaLayout.Copy(3, Role.CMP), layout.copyOf(3));
        assertNull(layout.copyOf(6));
        assertEquals(-1, layout.repRank(3));
    }

    @Test
    void aReplicaSendingToAnUnreplicatedRankSendsNothing() {
        ReplicaLayout layout = ReplicaLayout.launch(3, 1);
        assertTrue(layout.sendRoutes(0, 2, Role.REP).isEmpty());
        assertEquals(List.of(new Route(Link.CMP, 0), new Route(Link.CMP_NO_REP_TO_REP, 0)),
                layout.sendRoutes(2, 0, Role.CMP));
    }

    @Test
    void promotionKeepsEveryRankAndTheRoutesConsistent() {
        for (int n = 2; n <= 6; n++) {
            for (int m = 1; m <= n; m++) {
                ReplicaLayout launch = ReplicaLayout.launch(n, m);
                for (int v = 0; v < n + m; v++) {
                    int victim = v;
                    ReplicaLayout.Copy hit = launch.copyOf(victim);
                    if (hit.role() == Role.CMP && !launch.hasReplica(hit.logical())) {
                        assertThrows(RankLostException.class, () -> launch.withFailures(Set.of(victim)));
                        continue;
                    }
                    ReplicaLayout after = launch.withFailures(Set.of(victim));
                    assertEquals(m - 1, after.replicas());
                    for (int l = 0; l < n; l++) {
                        assertTrue(after.cmpNative(l) != victim && after.repNative(l) != victim);
                    }
                    if (hit.role() == Role.CMP) {
                        assertEquals(launch.repNative(hit.logical()), after.cmpNative(hit.logical()), "promoted");
                    }
                    assertRoutesConsistent(after);
                }
            }
        }
    }

    @Test
    void losingBothCopiesOfARankEndsTheJob() {
        ReplicaLayout layout = ReplicaLayout.launch(3, 2);
        RankLostException e = assertThrows(RankLostException.class, () -> layout.withFailures(Set.of(1, 4)));
        assertEquals(1, e.logicalRank());
    }

    @Test
    void degreeGivesTheReplicaCount() {
        assertEquals(8, ReplicaLayout.replicasForDegree(8, 1.0));
        assertEquals(4, ReplicaLayout.replicasForDegree(8, 0.5));
        assertEquals(0, ReplicaLayout.replicasForDegree(8, 0));
        assertThrows(IllegalArgumentException.class, () -> ReplicaLayout.replicasForDegree(8, 1.5));
        assertThrows(IllegalArgumentException.class, () -> ReplicaLayout.launch(4, 5));
    }
}

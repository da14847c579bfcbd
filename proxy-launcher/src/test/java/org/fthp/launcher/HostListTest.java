package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostListTest {

    @TempDir
    Path dir;

    @Test
    void readsMpirunsHostListConventions() throws LaunchException {
        HostList hosts = HostList.of(List.of("--mca", "btl", "tcp,self", "--host", "h0:4,h1:2,h0,h2"));
        assertEquals(List.of(new HostList.Host("h0", 5), new HostList.Host("h1", 2), new HostList.Host("h2", 1)),
                hosts.hosts());
        assertTrue(hosts.several());
        assertEquals(8, hosts.totalSlots());
        assertEquals(List.of(new HostList.Host("a", 2)), HostList.of(List.of("-H", "a,a")).hosts());
        assertFalse(HostList.of(List.of("--host", "localhost:8")).several());
        assertTrue(HostList.of(List.of("--oversubscribe")).hosts().isEmpty());
    }

    @Test
    void readsAHostfile() throws Exception {
        Path file = dir.resolve("hosts");
        Files.writeString(file, "# the cluster\nn1 slots=4 max_slots=8\n\nn2   slots=2  # second\nn3\n");
        assertEquals(List.of(new HostList.Host("n1", 4), new HostList.Host("n2", 2), new HostList.Host("n3", 1)),
                HostList.of(List.of("--hostfile", file.toString())).hosts());
        assertEquals(3, HostList.of(List.of("--machinefile", file.toString())).count());
    }

    @Test
    void badHostsAreUsageErrors() throws Exception {
        assertEquals(LaunchException.USAGE,
                assertThrows(LaunchException.class, () -> HostList.of(List.of("--host", "h0:0"))).exitCode());
        assertThrows(LaunchException.class, () -> HostList.of(List.of("--host", "h0:x,h1")));
        assertThrows(LaunchException.class, () -> HostList.of(List.of("--host")));
        assertThrows(LaunchException.class, () -> HostList.of(List.of("--hostfile", dir.resolve("none").toString())));
        Path file = dir.resolve("bad");
        Files.writeString(file, "n1 cpus=4\n");
        assertTrue(assertThrows(LaunchException.class, () -> HostList.of(List.of("--hostfile", file.toString())))
                .getMessage().contains("cpus=4"));
    }

    @Test
    void replicasGoToAnotherHostThanTheirTwins() {
        HostList two = HostList.parseListUnchecked("h0:2,h1:2");
        ReplicaPlacement p = ReplicaPlacement.of(two, 2, 2);
        assertEquals("rank 0=h0 slot=0\nrank 1=h0 slot=0\nrank 2=h1 slot=0\nrank 3=h1 slot=0\n", p.rankfile());
        assertEquals("0,0,1,1", p.coordinatorOf());
        assertFalse(p.oversubscribed());

        // more processes than slots: every replica still away from its twin
        ReplicaPlacement full = ReplicaPlacement.of(two, 4, 4);
        for (int j = 0; j < 4; j++) {
            assertTrue(full.hostOf(j) != full.hostOf(4 + j), "rank " + j + ":\n" + full.rankfile());
        }
        assertTrue(full.oversubscribed());

        assertEquals("0,0,0,0", ReplicaPlacement.of(two, 2, 2, ReplicaPlacement.SAME, 0).coordinatorOf());

        // three hosts, a partial degree: the first host after the twin's that has room
        ReplicaPlacement three = ReplicaPlacement.of(HostList.parseListUnchecked("a:2,b:2,c:1"), 3, 2);
        assertEquals("0,0,1,1,2", three.coordinatorOf(), three.rankfile());
        assertEquals(List.of("layout: logical rank, computational copy (native rank @ host), replica (native rank @ host)",
                "  rank 0: cmp 0 @ a, rep 3 @ b", "  rank 1: cmp 1 @ a, rep 4 @ c", "  rank 2: cmp 2 @ b"),
                three.table());
    }

    @Test
    void sparesGoWhereTheProgramLeftRoomAndFewestCopies() {
        // rank 0 on a, rank 1 on b, the spare on c: a host failure never takes a copy and the spare for it
        ReplicaPlacement one = ReplicaPlacement.of(HostList.parseListUnchecked("a:1,b:1,c:1"), 2, 0,
                ReplicaPlacement.NEXT, 1);
        assertEquals("rank 0=a slot=0\nrank 1=b slot=0\nrank 2=c slot=0\n", one.rankfile());
        assertEquals(List.of("layout: logical rank, computational copy (native rank @ host), replica (native rank @ host)",
                "  rank 0: cmp 0 @ a", "  rank 1: cmp 1 @ b", "  spare 2 @ c"), one.table());
        // two spares on two full hosts: one each, so losing a host leaves one
        ReplicaPlacement full = ReplicaPlacement.of(HostList.parseListUnchecked("a:2,b:2"), 2, 2,
                ReplicaPlacement.NEXT, 2);
        assertEquals("0,0,1,1,0,1", full.coordinatorOf());
        assertTrue(full.oversubscribed());
        assertEquals(2, full.spares());
    }

    @Test
    void mapReplicasIsOursAndChecked() throws LaunchException {
        LaunchOptionsParser parser = new LaunchOptionsParser();
        assertEquals(ReplicaPlacement.NEXT, parser.parse(List.of("-np", "2", "--", "Main")).mapReplicas());
        LaunchOptions o = parser.parse(List.of("-np", "2", "--map-replicas", "same", "--host", "a,b", "--", "Main"));
        assertEquals(ReplicaPlacement.SAME, o.mapReplicas());
        assertEquals(List.of("--host", "a,b"), o.mpirunArgs());
        assertTrue(assertThrows(LaunchException.class,
                () -> parser.parse(List.of("-np", "2", "--map-replicas", "far", "--", "Main"))).getMessage()
                .contains("[next, same]"));
    }

    @Test
    void theAgentIsMpirunsOwn() {
        assertEquals(List.of("ssh"), RemoteAgent.of(List.of(), Map.of()).words());
        assertEquals(List.of("rsh", "-x"), RemoteAgent.of(List.of(), Map.of(RemoteAgent.ENV, "rsh -x")).words());
        RemoteAgent agent = RemoteAgent.of(List.of("--mca", "plm_rsh_agent", "/run/agent", "-np", "2"),
                Map.of(RemoteAgent.ENV, "ssh"));
        assertEquals(List.of("/run/agent"), agent.words());
        assertEquals(List.of("/run/agent", "h1", "exec /bin/x 'a b' 'it'\\''s'"),
                agent.command("h1", List.of("/bin/x", "a b", "it's")));
    }
}

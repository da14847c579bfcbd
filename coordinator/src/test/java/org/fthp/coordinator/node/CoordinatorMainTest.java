package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.testing.RecordingListener;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.NodeAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The standalone form: fixed ports from a shared node list, parent connected with retries. */
@Timeout(20)
class CoordinatorMainTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void nodesFromOneSharedListFindEachOther() throws Exception {
        JobSecret secret = JobSecret.generate();
        String nodes = "127.0.0.1:" + freePort() + ",127.0.0.1:" + freePort();
        NodeCoordinator member = node(secret, nodes, 1);
        NodeCoordinator primary = node(secret, nodes, 0);
        member.start();
        // The member starts connecting before its parent listens: the retry has to cover that.
        Thread linking = Thread.ofPlatform().start(() -> {
            try {
                CoordinatorMain.connectWithRetry(member);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread.sleep(150);
        primary.start();
        linking.join(Duration.ofSeconds(10));
        assertEquals(1, primary.childCount());

        RecordingListener survivor = new RecordingListener();
        CoordinatorClient a = client(secret, NodeAddress.parse(nodes.split(",")[0]), 0, survivor);
        CoordinatorClient b = client(secret, NodeAddress.parse(nodes.split(",")[1]), 1, new RecordingListener());
        b.close();
        assertEquals(1, survivor.awaitAbort(Duration.ofSeconds(5)).lostRank());
    }

    @Test
    void rejectsIncompleteOptions() {
        JobSecret secret = JobSecret.generate();
        assertThrows(IllegalArgumentException.class,
                () -> CoordinatorMain.parse(new String[] {"--node-id", "0"}, secret));
        assertThrows(IllegalArgumentException.class, () -> CoordinatorMain.parse(new String[] {"--node-id", "3",
                "--nodes", "127.0.0.1:1", "--group-size", "1", "--ranks", "1"}, secret));
    }

    private NodeCoordinator node(JobSecret secret, String nodes, int id) {
        CoordinatorConfig config = CoordinatorMain.parse(new String[] {"--node-id", "" + id, "--nodes", nodes,
                "--group-size", "2", "--ranks", "2", "--replicas", "0"}, secret);
        NodeCoordinator node = new NodeCoordinator(config);
        open.add(node);
        return node;
    }

    private CoordinatorClient client(JobSecret secret, NodeAddress at, int rank, RecordingListener l)
            throws Exception {
        CoordinatorClient c = CoordinatorClient.builder().coordinator(at).secret(secret).pid(50_000 + rank)
                .ranks(rank, rank, Role.CMP).listener(l).connect();
        open.add(c);
        return c;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** A real coordinator process with checkpoints: its stdout lines for the launcher, and its control channel. */
    @Test
    void aCoordinatorProcessReportsCheckpointsAndStartsANewIncarnationWhenTold() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("fthp-ckpt-main-");
        JobSecret secret = JobSecret.generate();
        int port = freePort();
        Process p = coordinatorProcess(secret, port, "--checkpoint-dir", dir.toString(), "--checkpoint-interval", "30");
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()));
        try {
            assertTrue(out.readLine().startsWith("FTHP_COORDINATOR_READY node=0"));
            CoordinatorClient c = client(secret, new NodeAddress("127.0.0.1", port), 0, new RecordingListener());
            c.putPiece(1, 0, java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}), Duration.ofSeconds(5));
            c.reportCheckpointCost(1, 0, 3_000_000L);
            List<String> lines = new ArrayList<>();
            while (lines.stream().noneMatch(l -> l.startsWith("FTHP_CHECKPOINT_ON_DISK"))
                    || lines.stream().noneMatch(l -> l.startsWith("FTHP_CHECKPOINT_COMMITTED"))) {
                lines.add(out.readLine());
            }
            assertTrue(lines.contains("FTHP_CHECKPOINT_INTERVAL seconds=30.000 basis=fixed"), lines.toString());
            assertTrue(lines.contains("FTHP_CHECKPOINT_COMMITTED epoch=1 bytes=3 cost=0.003000"), lines.toString());
            assertTrue(lines.contains("FTHP_CHECKPOINT_MEMORY node=0 held=3 peak=3 limit=" + (512L << 20)),
                    lines.toString());
            assertTrue(lines.contains("FTHP_CHECKPOINT_ON_DISK epoch=1 bytes=3"), lines.toString());
            p.getOutputStream().write("new-incarnation replicas=0\n".getBytes());
            p.getOutputStream().flush();
            assertEquals("FTHP_COORDINATOR_RESET node=0 committed=1 seen=1", out.readLine());
            p.getOutputStream().write("settle-checkpoints committed=1 first=2\n".getBytes());
            p.getOutputStream().flush();
            assertEquals("FTHP_COORDINATOR_SETTLED node=0", out.readLine());
        } finally {
            p.destroy();
            p.waitFor();
        }
    }

    @Test
    void aCoordinatorProcessRefusesAnUnusableCheckpointDirectory() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("fthp-not-a-dir-", "");
        Process p = coordinatorProcess(JobSecret.generate(), freePort(), "--checkpoint-dir", file.toString());
        assertTrue(p.waitFor(15, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(2, p.exitValue());
        String err = new String(p.getErrorStream().readAllBytes());
        assertTrue(err.contains("checkpoint directory " + file), err);
    }

    @Test
    void withTheLifelineTheEndOfInputEndsTheCoordinatorAndWithoutItNot() throws Exception {
        Process kept = coordinatorProcess(JobSecret.generate(), freePort());
        Process tied = coordinatorProcess(JobSecret.generate(), freePort(), "--lifeline", "stdin");
        try {
            for (Process p : List.of(kept, tied)) {
                java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(
                        p.getInputStream()));
                assertTrue(out.readLine().startsWith("FTHP_COORDINATOR_READY node=0"));
                p.getOutputStream().close();   // what a launcher killed even by SIGKILL leaves
            }
            assertTrue(tied.waitFor(20, java.util.concurrent.TimeUnit.SECONDS),
                    "a coordinator whose launcher is gone must end");
            assertEquals(0, tied.exitValue());
            assertTrue(kept.isAlive(), "without --lifeline the end of input changes nothing");
        } finally {
            for (Process p : List.of(kept, tied)) {
                p.destroy();
                p.waitFor();
            }
        }
    }

    private static Process coordinatorProcess(JobSecret secret, int port, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                CoordinatorMain.class.getName(), "--node-id", "0", "--nodes", "127.0.0.1:" + port,
                "--group-size", "1", "--ranks", "1", "--replicas", "0"));
        cmd.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("FTHP_JOB_SECRET", secret.toHex());
        return pb.start();
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

    /** Several hosts: each node binds an ephemeral port and is sent the node list once all are listening. */
    @Test
    void nodesFromStdinBindAnEphemeralPortAndReadTheListFromTheControlChannel() throws Exception {
        JobSecret secret = JobSecret.generate();
        CoordinatorConfig config = CoordinatorMain.parse(new String[] {"--node-id", "1", "--nodes", "stdin",
                "--node-count", "2", "--group-size", "1", "--ranks", "2", "--bind", "127.0.0.1"}, secret);
        assertEquals(0, config.port());
        assertTrue(config.nodes().isEmpty());
        assertEquals(2, config.layout().nodeCount());
        assertThrows(IllegalArgumentException.class, () -> CoordinatorMain.parse(new String[] {"--node-id", "0",
                "--nodes", "stdin", "--group-size", "1", "--ranks", "2"}, secret));
        java.io.BufferedReader control = new java.io.BufferedReader(
                new java.io.StringReader("nodes 10.0.0.1:4000,10.0.0.2:4001\nnew-incarnation replicas=1\n"));
        assertEquals(List.of(new NodeAddress("10.0.0.1", 4000), new NodeAddress("10.0.0.2", 4001)),
                CoordinatorMain.nodesFromControl(control, 2));
        assertEquals("new-incarnation replicas=1", control.readLine(), "the rest stays the control channel");
        assertThrows(IllegalStateException.class, () -> CoordinatorMain.nodesFromControl(
                new java.io.BufferedReader(new java.io.StringReader("nodes 10.0.0.1:4000\n")), 2));
        assertEquals(null, CoordinatorMain.nodesFromControl(
                new java.io.BufferedReader(new java.io.StringReader("")), 2));
    }
}

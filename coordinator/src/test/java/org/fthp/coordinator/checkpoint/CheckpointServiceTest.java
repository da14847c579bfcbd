package org.fthp.coordinator.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.fthp.checkpoint.store.CheckpointStore;
import org.fthp.coordinator.client.CheckpointTransferException;
import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.node.NodeCoordinator;
import org.fthp.coordinator.testing.EmulatedJob;
import org.fthp.coordinator.wire.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint service on real coordinators (Netty servers on loopback, one per emulated node) with real clients:
 * one rank per node unless said otherwise, so rank r's piece is held by node r and its partner r+1.
 */
@Timeout(60)
class CheckpointServiceTest {
    private static final Duration SOON = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private EmulatedJob job;

    @AfterEach
    void tearDown() {
        if (job != null) {
            job.close();
        }
    }

    private static ByteBuffer piece(long epoch, int rank, int size) {
        byte[] b = new byte[size];
        new Random(epoch * 1000 + rank).nextBytes(b);
        return ByteBuffer.wrap(b);
    }

    private CoordinatorClient client(int nativeRank) {
        return job.clients.get(nativeRank);
    }

    private void putAll(long epoch, int ranks, int size) throws Exception {
        for (int r = 0; r < ranks; r++) {
            client(r).putPiece(epoch, r, piece(epoch, r, size), SOON);
        }
    }

    @Test
    void aPieceIsHeldByItsNodeAndItsPartnerAndAnyRankCanGetAnyPiece() throws Exception {
        job = new EmulatedJob(3, 2, 3, 0, Duration.ofSeconds(5));
        for (int r = 0; r < 3; r++) {
            assertEquals(Message.PieceAck.Status.HELD_WITH_PARTNER, client(r).putPiece(1, r, piece(1, r, 1000), SOON));
        }
        for (int r = 0; r < 3; r++) {
            assertTrue(client(r).awaitCommitted(1, SOON), "rank " + r + " hears of the commit");
            assertEquals(1, client(r).lastCommittedEpoch());
        }
        // rank 1's piece: node 1 and its partner node 2, not node 0
        assertTrue(job.hierarchy.node(1).checkpoints().memory().get(1, 1).orElseThrow().local());
        assertFalse(job.hierarchy.node(2).checkpoints().memory().get(1, 1).orElseThrow().local());
        assertTrue(job.hierarchy.node(0).checkpoints().memory().get(1, 1).isEmpty());
        // so rank 0's node has to fetch it from another node
        assertEquals(piece(1, 1, 1000), client(0).getPiece(1, 1, SOON));
        assertEquals(piece(1, 2, 1000), client(0).getPiece(1, 2, SOON), "node 0 holds rank 2's partner copy");
    }

    @Test
    void everyRankPuttingAtOnceCommits() throws Exception {
        // nodes copy to each other at the same time: 0 → 1, 1 → 2, 2 → 0, a cycle of partners
        job = new EmulatedJob(3, 2, 6, 0, Duration.ofSeconds(5));
        List<Thread> threads = new java.util.ArrayList<>();
        java.util.Queue<Throwable> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int r = 0; r < 6; r++) {
            int rank = r;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    client(rank).putPiece(1, rank, piece(1, rank, 2_000_000), SOON);
                } catch (Throwable t) {
                    errors.add(t);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(errors.isEmpty(), errors.toString());
        assertTrue(client(5).awaitCommitted(1, SOON));
    }

    @Test
    void aLargePieceTravelsInChunks() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        int size = 9 * 1024 * 1024 + 17;
        assertEquals(Message.PieceAck.Status.HELD_WITH_PARTNER, client(0).putPiece(4, 0, piece(4, 0, size), SOON));
        client(1).putPiece(4, 1, piece(4, 1, 10), SOON);
        assertEquals(piece(4, 0, size), client(1).getPiece(4, 0, SOON));
    }

    @Test
    void withOneNodeOnlyTheLocalCopyExistsAndTheAckSaysSo() throws Exception {
        job = new EmulatedJob(1, 1, 2, 0, Duration.ofSeconds(5));
        assertEquals(Message.PieceAck.Status.HELD_LOCAL_ONLY, client(0).putPiece(0, 0, piece(0, 0, 10), SOON));
        client(1).putPiece(0, 1, piece(0, 1, 10), SOON);
        assertTrue(client(0).awaitCommitted(0, SOON));
    }

    @Test
    void anEpochCommitsOnlyOnceEveryRanksPieceIsHeld() throws Exception {
        job = new EmulatedJob(3, 2, 3, 0, Duration.ofSeconds(5));
        client(0).putPiece(2, 0, piece(2, 0, 100), SOON);
        client(2).putPiece(2, 2, piece(2, 2, 100), SOON);
        assertFalse(client(0).awaitCommitted(2, Duration.ofMillis(500)));
        assertEquals(-1, client(1).lastCommittedEpoch());
        client(1).putPiece(2, 1, piece(2, 1, 100), SOON);
        assertTrue(client(0).awaitCommitted(2, SOON));
        // the next commit drops the older epoch everywhere
        putAll(3, 3, 100);
        assertTrue(client(2).awaitCommitted(3, SOON));
        for (int node = 0; node < 3; node++) {
            int n = node;
            waitFor(() -> job.hierarchy.node(n).checkpoints().memory().epochs().equals(List.of(3L)),
                    "node " + node + " drops epoch 2");
        }
    }

    @Test
    void aCoordinatorThatDiesTakesItsMemoryAndTheGetComesFromThePartnerThenFromDisk() throws Exception {
        Path ckpt = dir.resolve("ckpt");
        job = new EmulatedJob(3, 2, 3, 0, Duration.ofSeconds(5),
                node -> CheckpointConfig.DEFAULT.withDirectory(ckpt, 1));
        putAll(5, 3, 5000);
        assertTrue(client(0).awaitCommitted(5, SOON));
        CheckpointStore store = CheckpointStore.open(ckpt);
        waitFor(() -> {
            try {
                return store.latestUsable().map(m -> m.epoch() == 5).orElse(false);
            } catch (java.io.IOException e) {
                return false;
            }
        }, "epoch 5 committed on disk");

        job.hierarchy.node(1).close(); // rank 1's own node: its copy is gone
        assertEquals(piece(5, 1, 5000), client(0).getPiece(5, 1, SOON), "from node 2, the partner");
        job.hierarchy.node(2).close(); // and now the partner too
        assertEquals(piece(5, 1, 5000), client(0).getPiece(5, 1, SOON), "from the checkpoint directory");
        CheckpointTransferException missing = assertThrows(CheckpointTransferException.class,
                () -> client(0).getPiece(6, 1, SOON));
        assertTrue(missing.getMessage().contains("checkpoint directory"), missing.getMessage());
    }

    @Test
    void aPutBeyondTheMemoryBoundIsAnErrorTheProcessSees() throws Exception {
        // node 1 is small; node 0 is not
        IntFunction<CheckpointConfig> limits = node -> CheckpointConfig.DEFAULT.withMemoryLimit(
                node == 1 ? 200_000 : 1_000_000);
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5), limits);
        CheckpointTransferException e = assertThrows(CheckpointTransferException.class,
                () -> client(1).putPiece(1, 1, piece(1, 1, 300_000), SOON));
        assertTrue(e.getMessage().contains("--checkpoint-memory"), e.getMessage());
        // the refused put stopped early; the same epoch and rank put again is a new piece, not its continuation
        client(1).putPiece(1, 1, piece(1, 1, 150_000), SOON);
        // rank 0's piece fits node 0, but its copy does not fit node 1, the partner: refused, and not kept
        CheckpointTransferException partner = assertThrows(CheckpointTransferException.class,
                () -> client(0).putPiece(1, 0, piece(1, 0, 100_000), SOON));
        assertTrue(partner.getMessage().contains("partner node 1"), partner.getMessage());
        assertEquals(150_000, job.hierarchy.node(0).checkpoints().memory().heldBytes(), "only rank 1's copy");
        // nothing leaked: a piece that fits still goes through
        assertEquals(Message.PieceAck.Status.HELD_WITH_PARTNER, client(0).putPiece(1, 0, piece(1, 0, 40_000), SOON));
        assertTrue(client(0).awaitCommitted(1, SOON));
        assertEquals(190_000, job.hierarchy.node(1).checkpoints().memory().heldBytes());
    }

    @Test
    void aSecondPutOfTheSameEpochAndRankChangesNothing() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        client(0).putPiece(1, 0, piece(1, 0, 100), SOON);
        assertEquals(Message.PieceAck.Status.HELD_WITH_PARTNER, client(0).putPiece(1, 0, piece(1, 0, 100), SOON));
        // a diverged twin's piece is answered too, and the first one is kept
        assertEquals(Message.PieceAck.Status.HELD_WITH_PARTNER, client(0).putPiece(1, 0, piece(9, 9, 100), SOON));
        assertEquals(100, job.hierarchy.node(0).checkpoints().memory().heldBytes());
        assertEquals(piece(1, 0, 100), client(1).getPiece(1, 0, SOON));
        assertFalse(client(0).awaitCommitted(1, Duration.ofMillis(300)), "rank 1 has not put yet");
    }

    @Test
    void thePrimarysTimerSaysWhenACheckpointIsDueToEveryProcess() throws Exception {
        job = new EmulatedJob(2, 2, 4, 0, Duration.ofSeconds(5),
                node -> CheckpointConfig.DEFAULT.withInterval(new IntervalPolicy.Fixed(0.2)));
        for (int r = 0; r < 4; r++) {
            int rank = r;
            waitFor(() -> client(rank).checkpointDueSequence() >= 2, "rank " + r + " hears two due checkpoints");
        }
    }

    @Test
    void theAutomaticIntervalIsDalysAndIsLoggedWhenItChanges() throws Exception {
        BlockingQueue<String> intervals = new LinkedBlockingQueue<>();
        // a per-process MTBF of 4 s: Daly's interval is below the 1 s floor, so a checkpoint is due every second
        job = new EmulatedJob(1, 1, 2, 0, Duration.ofSeconds(5),
                node -> CheckpointConfig.DEFAULT.withInterval(new IntervalPolicy.Auto(java.util.OptionalDouble.of(4))));
        job.hierarchy.node(0).setJobEvents(new JobEvents() {
            @Override public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) { }
            @Override public void jobAborted(String reason, int lostRank) { }
            @Override public void checkpointInterval(double seconds, String basis) {
                intervals.add(seconds + " " + basis);
            }
        });
        waitFor(() -> client(0).checkpointDueSequence() >= 2, "two checkpoints due within the test's time");
        putAll(1, 2, 10);
        for (int r = 0; r < 2; r++) {
            client(r).reportCheckpointCost(1, r, 300_000_000L);
        }
        // after the commit the interval is recomputed from the measured 0.3 s
        String changed = intervals.poll(10, TimeUnit.SECONDS);
        while (changed != null && !changed.contains("cost 0.300 s")) {
            changed = intervals.poll(10, TimeUnit.SECONDS);
        }
        assertTrue(changed != null && changed.startsWith("1.0 Daly"), String.valueOf(changed));
    }

    @Test
    void theCommitIsReportedWithItsCostOnceEveryRankReportedIt() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        job.hierarchy.node(0).setJobEvents(new JobEvents() {
            @Override public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) { }
            @Override public void jobAborted(String reason, int lostRank) { }
            @Override public void checkpointCommitted(long epoch, long bytes, double cost) {
                events.add("committed " + epoch + " " + bytes + " " + cost);
            }
        });
        putAll(1, 2, 64);
        client(0).reportCheckpointCost(1, 0, 250_000_000L);
        assertEquals(null, events.poll(300, TimeUnit.MILLISECONDS), "rank 1 has not reported its cost");
        client(1).reportCheckpointCost(1, 1, 500_000_000L);
        assertEquals("committed 1 128 0.5", events.poll(10, TimeUnit.SECONDS));
    }

    @Test
    void aNewIncarnationKeepsTheCommittedEpochAndForgetsTheRest() throws Exception {
        job = new EmulatedJob(2, 2, 2, 2, Duration.ofSeconds(5));
        client(0).putPiece(1, 0, piece(1, 0, 10), SOON);
        client(1).putPiece(1, 1, piece(1, 1, 10), SOON);
        assertTrue(client(0).awaitCommitted(1, SOON));
        client(0).putPiece(2, 0, piece(2, 0, 10), SOON); // epoch 2 never completes
        JobShape fewer = new JobShape(2, 1);
        for (int node = 0; node < 2; node++) {
            // (node 1 may not have seen epoch 2 yet: the partner copy may still be on its way)
            assertEquals(1, job.hierarchy.node(node).newIncarnation(fewer).lastCommitted());
            assertEquals(fewer, job.hierarchy.node(node).jobShape());
        }
        for (int node = 0; node < 2; node++) {
            job.hierarchy.node(node).settleCheckpoints(1, 3);
            assertEquals(List.of(1L), job.hierarchy.node(node).checkpoints().memory().epochs());
        }
        // a process of the new incarnation hears of the commit as it registers, and gets its piece
        CoordinatorClient reborn = job.connect(1, 3, 1, org.fthp.coordinator.event.Role.CMP,
                new org.fthp.coordinator.testing.RecordingListener());
        try {
            assertTrue(reborn.awaitCommitted(1, SOON));
            assertArrayEquals(piece(1, 1, 10).array(), reborn.getPiece(1, 1, SOON).array());
        } finally {
            reborn.close();
        }
    }

    @Test
    void aNodeThatHadNotHeardTheLastCommitTakesItWhenTheRestartSettles() throws Exception {
        job = new EmulatedJob(2, 2, 2, 2, Duration.ofSeconds(5));
        client(0).putPiece(1, 0, piece(1, 0, 10), SOON);
        client(1).putPiece(1, 1, piece(1, 1, 10), SOON);
        assertTrue(client(0).awaitCommitted(1, SOON));
        // node 1 holds epoch 2 but has heard no commit of it: as if the primary's CHECKPOINT_COMMITTED for it were
        // still on the way when the job ended
        client(1).putPiece(2, 1, piece(2, 1, 10), SOON);
        JobShape same = new JobShape(2, 2);
        NodeCoordinator.CheckpointState state = job.hierarchy.node(1).newIncarnation(same);
        assertEquals(new NodeCoordinator.CheckpointState(1, 2), state);
        CheckpointService late = job.hierarchy.node(1).checkpoints();
        assertEquals(List.of(1L, 2L), late.memory().epochs(), "nothing is dropped before the restart epoch is known");
        job.hierarchy.node(1).settleCheckpoints(2, 3);
        assertEquals(2, late.lastCommitted());
        assertEquals(List.of(2L), late.memory().epochs(), "the restart's epoch is kept, the older one goes");
    }

    /**
     * A restart where the relaunched job's computational copies recover, compute and commit a newer epoch (a commit
     * needs only their pieces) before a replica slow to start has asked for its piece of the restart's epoch. That
     * piece must still be there, by name (the shared file) and by bytes; the next relaunch lets it go.
     */
    @Test
    void aCopyThatRecoversAfterTheRelaunchedJobCommittedStillFindsTheRestartEpoch() throws Exception {
        job = new EmulatedJob(1, 4, 2, 2, Duration.ofSeconds(5)); // one host, as fthp-run without --nodes
        client(0).putPiece(1, 0, piece(1, 0, 100), SOON);
        client(1).putPiece(1, 1, piece(1, 1, 100), SOON);
        assertTrue(client(0).awaitCommitted(1, SOON));
        NodeCoordinator node = job.hierarchy.node(0);
        JobShape shape = new JobShape(2, 2);
        assertEquals(1, node.newIncarnation(shape).lastCommitted());
        node.settleCheckpoints(1, 2);
        org.fthp.coordinator.event.Role cmp = org.fthp.coordinator.event.Role.CMP;
        CoordinatorClient rank0 = job.connect(0, 0, 0, cmp, new org.fthp.coordinator.testing.RecordingListener());
        CoordinatorClient rank1 = job.connect(0, 1, 1, cmp, new org.fthp.coordinator.testing.RecordingListener());
        CoordinatorClient lateReplica = null;
        try {
            assertArrayEquals(piece(1, 0, 100).array(), rank0.getPiece(1, 0, SOON).array());
            assertArrayEquals(piece(1, 1, 100).array(), rank1.getPiece(1, 1, SOON).array());
            rank0.putPiece(2, 0, piece(2, 0, 100), SOON);
            rank1.putPiece(2, 1, piece(2, 1, 100), SOON);
            assertTrue(rank0.awaitCommitted(2, SOON));
            assertEquals(List.of(1L, 2L), node.checkpoints().memory().epochs(), "the restart's epoch stays");
            lateReplica = job.connect(0, 3, 1, org.fthp.coordinator.event.Role.REP,
                    new org.fthp.coordinator.testing.RecordingListener());
            PieceBytes shared = lateReplica.openPiece(1, 1, SOON);
            try {
                assertEquals(piece(1, 1, 100), copyOf(shared));
            } finally {
                shared.release();
            }
            assertArrayEquals(piece(1, 1, 100).array(), lateReplica.getPiece(1, 1, SOON).array());
            // a further commit keeps it too; the next relaunch (from epoch 3) lets it go
            rank0.putPiece(3, 0, piece(3, 0, 100), SOON);
            rank1.putPiece(3, 1, piece(3, 1, 100), SOON);
            assertTrue(rank0.awaitCommitted(3, SOON));
            assertEquals(List.of(1L, 3L), node.checkpoints().memory().epochs());
        } finally {
            rank0.close();
            rank1.close();
            if (lateReplica != null) {
                lateReplica.close();
            }
        }
        assertEquals(3, node.newIncarnation(shape).lastCommitted());
        node.settleCheckpoints(3, 4);
        assertEquals(List.of(3L), node.checkpoints().memory().epochs());
    }

    // ---- the shared-memory hand-off (a process and its coordinator on one host) ----

    /** Writes {@code piece} into the slot the way a rank's encoder does, and returns its CRC32C. */
    private static java.util.function.ToIntFunction<ByteBuffer> writing(ByteBuffer piece) {
        return into -> {
            into.put(piece.duplicate());
            java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
            crc.update(piece.duplicate());
            return (int) crc.getValue();
        };
    }

    private static ByteBuffer copyOf(PieceBytes bytes) {
        ByteBuffer out = ByteBuffer.allocate(bytes.size());
        out.put(bytes.view()).flip();
        return out;
    }

    private long filesOf(int node) throws java.io.IOException {
        String port = "-" + job.hierarchy.address(node).port() + "-" + ProcessHandle.current().pid() + "-";
        try (var files = java.nio.file.Files.list(PieceDirectory.hostDefault())) {
            return files.filter(f -> f.getFileName().toString().contains(port)).count();
        }
    }

    @Test
    void aSharedPieceIsHeldAtOnceAndItsEpochCommitsOnceThePartnerHoldsItsCopy() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        int size = 3 * 1024 * 1024 + 5;
        for (int r = 0; r < 2; r++) {
            assertEquals(Message.PieceAck.Status.HELD_COPYING,
                    client(r).putPiece(1, r, size, writing(piece(1, r, size)), SOON));
        }
        assertTrue(client(0).awaitCommitted(1, SOON));
        assertFalse(job.hierarchy.node(1).checkpoints().memory().get(1, 0).orElseThrow().local(), "the partner's copy");
        // a get by a process of this host maps the coordinator's own file: the bytes, checked, without a transfer
        PieceBytes mine = client(0).openPiece(1, 0, SOON);
        assertTrue(mine.file().isPresent());
        assertEquals(piece(1, 0, size), copyOf(mine));
        mine.release();
        PieceBytes partners = client(1).openPiece(1, 0, SOON);
        assertEquals(piece(1, 0, size), copyOf(partners), "node 1's copy, received from node 0");
        partners.release();
    }

    @Test
    void aProcessWritesItsNextPiecesIntoTheFilesItsCoordinatorGaveBack() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        for (long epoch = 1; epoch <= 4; epoch++) {
            for (int r = 0; r < 2; r++) {
                client(r).putPiece(epoch, r, 10_000, writing(piece(epoch, r, 10_000)), SOON);
            }
            assertTrue(client(0).awaitCommitted(epoch, SOON));
            long e = epoch;
            waitFor(() -> job.hierarchy.node(0).checkpoints().memory().epochs().equals(List.of(e)), "older dropped");
        }
        // the committed epoch's file and the one given back: the same two, however many checkpoints
        waitFor(() -> {
            try {
                return filesOf(0) == 2;
            } catch (java.io.IOException ex) {
                return false;
            }
        }, "two slot files for rank 0");
        assertEquals(piece(4, 0, 10_000), client(1).getPiece(4, 0, SOON));
    }

    @Test
    void aCoordinatorThatCannotSeeTheFileGetsTheBytesOverTheConnection() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        // as a process on another host would be: its files are where the coordinator does not look
        CoordinatorClient remote = CoordinatorClient.builder().coordinator(job.hierarchy.address(0))
                .secret(job.secret).pid(EmulatedJob.FAKE_PID_BASE + 90).ranks(0, 0,
                        org.fthp.coordinator.event.Role.CMP)
                .listener(new org.fthp.coordinator.testing.RecordingListener()).pieceDirectory(dir).connect();
        try {
            assertEquals(Message.PieceAck.Status.HELD_WITH_PARTNER,
                    remote.putPiece(1, 0, 5000, writing(piece(1, 0, 5000)), SOON));
            PieceBytes back = remote.openPiece(1, 0, SOON);
            assertTrue(back.file().isEmpty(), "sent as chunks, not as a file it could not map");
            assertEquals(piece(1, 0, 5000), copyOf(back));
            try (var left = java.nio.file.Files.list(dir)) {
                assertEquals(0, left.filter(f -> f.getFileName().toString().startsWith("fthp-put")).count());
            }
        } finally {
            remote.finish();
        }
    }

    @Test
    void aSharedPieceBeyondTheMemoryBoundIsRefusedAndNotHeld() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5),
                node -> CheckpointConfig.DEFAULT.withMemoryLimit(100_000));
        CheckpointTransferException e = assertThrows(CheckpointTransferException.class,
                () -> client(0).putPiece(1, 0, 200_000, writing(piece(1, 0, 200_000)), SOON));
        assertTrue(e.getMessage().contains("--checkpoint-memory"), e.getMessage());
        assertEquals(0, job.hierarchy.node(0).checkpoints().memory().heldBytes());
        assertEquals(Message.PieceAck.Status.HELD_COPYING,
                client(0).putPiece(1, 0, 50_000, writing(piece(1, 0, 50_000)), SOON));
    }

    @Test
    void aRollbackInPlaceMakesNoPartnerCopyOfTheEpochsItAbandons() throws Exception {
        job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5));
        int size = 100_000;
        for (int r = 0; r < 2; r++) {
            client(r).putPiece(1, r, size, writing(piece(1, r, size)), SOON);
        }
        assertTrue(client(0).awaitCommitted(1, SOON));
        // the job resumes from epoch 1 and numbers its checkpoints from 4 on: 2 and 3 can never be used
        for (int n = 0; n < 2; n++) {
            job.hierarchy.node(n).checkpoints().rollingBackTo(1, 4);
        }
        assertEquals(Message.PieceAck.Status.HELD_COPYING,
                client(0).putPiece(2, 0, size, writing(piece(2, 0, size)), SOON), "the process is answered as ever");
        client(0).putPiece(4, 0, size, writing(piece(4, 0, size)), SOON);
        // one transfer thread per node, in order: once node 1 holds epoch 4's copy, epoch 2's piece was handled
        waitFor(() -> job.hierarchy.node(1).checkpoints().memory().get(4, 0).isPresent(), "epoch 4's partner copy");
        for (int n = 0; n < 2; n++) {
            assertTrue(job.hierarchy.node(n).checkpoints().memory().get(2, 0).isEmpty(),
                    "node " + n + " holds nothing of the abandoned epoch");
        }
        client(1).putPiece(4, 1, size, writing(piece(4, 1, size)), SOON);
        assertTrue(client(0).awaitCommitted(4, SOON), "the new numbering's epochs are copied and commit");
        for (int n = 0; n < 2; n++) {
            assertTrue(job.hierarchy.node(n).checkpoints().memory().get(1, 0).isPresent(),
                    "node " + n + " keeps the epoch the rollback resumes from");
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + SOON.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting: " + what);
            }
            Thread.sleep(20);
        }
    }
}

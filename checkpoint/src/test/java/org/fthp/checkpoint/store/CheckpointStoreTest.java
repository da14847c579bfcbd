package org.fthp.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fthp.checkpoint.piece.PieceReader;
import org.fthp.checkpoint.piece.PieceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {
    private static final int RANKS = 3;

    @TempDir
    Path dir;

    private static ByteBuffer piece(long epoch, int rank) {
        return new PieceWriter(rank, epoch, 10 * epoch, 0).add("x", new long[] {epoch * 100 + rank}).encode();
    }

    /** Writes every rank's piece of the epoch and commits it. */
    private static Manifest writeEpoch(CheckpointStore store, long epoch) throws IOException {
        List<PieceEntry> entries = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            entries.add(store.writePiece(epoch, r, piece(epoch, r)));
        }
        Manifest m = new Manifest(epoch, RANKS, entries);
        store.commit(m);
        return m;
    }

    private static long valueOf(ByteBuffer piece) throws IOException {
        long[] x = new long[1];
        PieceReader.open(piece).readInto("x", x);
        return x[0];
    }

    @Test
    void committedEpochReadsBack() throws Exception {
        CheckpointStore store = CheckpointStore.open(dir.resolve("ckpt"));
        Manifest m = writeEpoch(store, 4);
        assertEquals(m, store.latestUsable().orElseThrow());
        assertEquals(401, valueOf(store.readPiece(4, 1)));
        assertEquals(m, store.readManifest(4));
    }

    @Test
    void piecesWithoutManifestAreNotACommit() throws Exception {
        CheckpointStore store = CheckpointStore.open(dir);
        writeEpoch(store, 1);
        store.writePiece(2, 0, piece(2, 0));
        store.writePiece(2, 1, piece(2, 1)); // rank 2 never written: the writer died
        assertEquals(1, store.latestUsable().orElseThrow().epoch());
        assertThrows(IOException.class, () -> store.commit(new Manifest(2, RANKS, List.of(
                new PieceEntry(0, 1, 0), new PieceEntry(1, 1, 0), new PieceEntry(2, 1, 0)))));
        assertFalse(Files.exists(store.epochDirectory(2).resolve(CheckpointStore.MANIFEST)));
    }

    @Test
    void aDamagedOrMissingPieceFallsBackToThePreviousCommit() throws Exception {
        CheckpointStore store = CheckpointStore.open(dir);
        writeEpoch(store, 1);
        writeEpoch(store, 2);
        Path victim = store.piecePath(2, 1);
        byte[] bytes = Files.readAllBytes(victim);
        bytes[bytes.length / 2] ^= 1;
        Files.write(victim, bytes);
        List<String> why = new ArrayList<>();
        assertEquals(1, store.latestUsable(why::add).orElseThrow().epoch());
        assertTrue(why.get(0).contains("epoch 2") && why.get(0).contains("rank 1"), why.toString());
        assertThrows(IOException.class, () -> store.readPiece(2, 1));

        Files.delete(store.piecePath(1, 0));
        why.clear();
        assertTrue(store.latestUsable(why::add).isEmpty());
        assertTrue(why.get(1).contains("missing"), why.toString());
    }

    @Test
    void aCorruptManifestIsNotACommit() throws Exception {
        CheckpointStore store = CheckpointStore.open(dir);
        writeEpoch(store, 1);
        writeEpoch(store, 2);
        Path manifest = store.epochDirectory(2).resolve(CheckpointStore.MANIFEST);
        String text = Files.readString(manifest);
        Files.writeString(manifest, text.replace("ranks 3", "ranks 2"));
        assertEquals(1, store.latestUsable().orElseThrow().epoch());
        Files.writeString(manifest, text.substring(0, text.length() - 5));
        assertEquals(1, store.latestUsable().orElseThrow().epoch());
    }

    @Test
    void keepsTheTwoNewestCommitsAndDeletesOlderOnlyAfterANewerCommit() throws Exception {
        CheckpointStore store = CheckpointStore.open(dir);
        writeEpoch(store, 1);
        writeEpoch(store, 2);
        assertEquals(List.of(2L, 1L), store.committedEpochs());
        store.writePiece(3, 0, piece(3, 0)); // epoch 3 in progress: 1 must stay
        assertTrue(Files.exists(store.epochDirectory(1)));
        writeEpoch(store, 5);
        assertEquals(List.of(5L, 2L), store.committedEpochs());
        assertFalse(Files.exists(store.epochDirectory(1)));
        assertFalse(Files.exists(store.epochDirectory(3)), "an abandoned epoch older than the kept ones goes too");
        store.writePiece(6, 0, piece(6, 0));
        writeEpoch(store, 7);
        assertEquals(List.of(7L, 5L), store.committedEpochs());
        assertFalse(Files.exists(store.epochDirectory(6)), "epochs commit in order: 6 never will");
        store.writePiece(8, 0, piece(8, 0));
        writeEpoch(store, 1);  // a late commit of an old epoch prunes nothing newer
        assertTrue(Files.exists(store.piecePath(8, 0)));
    }

    @Test
    void aLeftoverTempFileFromAKilledWriterChangesNothing() throws Exception {
        CheckpointStore store = CheckpointStore.open(dir);
        writeEpoch(store, 1);
        Files.write(store.epochDirectory(1).resolve("rank-1.piece.999.1.tmp"), new byte[] {1, 2, 3});
        assertEquals(1, store.latestUsable().orElseThrow().epoch());
        assertEquals(101, valueOf(store.readPiece(1, 1)));
    }

    @Test
    void anUnusableDirectoryIsAClearErrorAtOpen() throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        IOException under = assertThrows(IOException.class, () -> CheckpointStore.open(file.resolve("sub")));
        assertTrue(under.getMessage().contains("cannot be created"), under.getMessage());
        IOException notDir = assertThrows(IOException.class, () -> CheckpointStore.open(file));
        assertTrue(notDir.getMessage().contains(file.toString()), notDir.getMessage());
    }
    private static final JobIdentity JOB = JobIdentity.ofClass("org.example.Solver", List.of("100", "a b/c*"), RANKS);

    @Test
    void aStoreOfAJobRecordsItInEveryManifestAndAnOlderManifestRecordsNone() throws IOException {
        CheckpointStore store = CheckpointStore.open(dir, java.util.Optional.of(JOB));
        writeEpoch(store, 1);
        assertEquals(java.util.Optional.of(JOB), store.readManifest(1).job());
        assertTrue(Files.readString(store.epochDirectory(1).resolve(CheckpointStore.MANIFEST))
                .startsWith("fthp-checkpoint-manifest 2\n"));
        CheckpointStore plain = CheckpointStore.open(dir.resolve("old"));
        writeEpoch(plain, 1);
        assertTrue(plain.readManifest(1).job().isEmpty());
        assertTrue(Files.readString(plain.epochDirectory(1).resolve(CheckpointStore.MANIFEST))
                .startsWith("fthp-checkpoint-manifest 1\n"));
    }

    @Test
    void aJobIdentityTravelsAsOneShellSafeTokenAndSaysWhatDiffers() {
        String token = JOB.token();
        assertTrue(token.matches("[A-Za-z0-9._%/-]+"), token);
        assertEquals(JOB, JobIdentity.fromToken(token));
        JobIdentity other = JobIdentity.ofClass("org.example.Solver", List.of("100", "a b/c*"), RANKS + 1);
        assertEquals("3 ranks there, 4 asked", JOB.difference(other));
        assertEquals("", JOB.difference(JobIdentity.fromToken(token)));
    }

    @Test
    void verifyingAnEpochFindsADamagedPieceAndTheHighestEpochCountsUncommittedOnes() throws IOException {
        CheckpointStore store = CheckpointStore.open(dir, java.util.Optional.of(JOB));
        writeEpoch(store, 1);
        writeEpoch(store, 2);
        store.writePiece(3, 0, piece(3, 0));
        assertEquals(3, store.highestEpoch());
        assertEquals(2, store.verifyEpoch(2).epoch());
        Path p = store.piecePath(2, 1);
        byte[] b = Files.readAllBytes(p);
        b[b.length / 2] ^= 1;
        Files.write(p, b);
        IOException e = assertThrows(IOException.class, () -> store.verifyEpoch(2));
        assertTrue(e.getMessage().contains("rank 1"), e.getMessage());
        assertEquals(1, store.verifyEpoch(1).epoch());
    }

    @Test
    void movingAsideKeepsEveryFileUnderANewPreviousDirectory() throws IOException {
        CheckpointStore store = CheckpointStore.open(dir);
        writeEpoch(store, 1);
        writeEpoch(store, 2);
        Files.createDirectories(dir.resolve("output"));
        Files.writeString(dir.resolve("output/stdout-0"), "hello\n");
        Path first = store.moveAside(List.of("output")).orElseThrow();
        assertEquals(dir.resolve("previous-1"), first);
        assertTrue(Files.exists(first.resolve("epoch-2/MANIFEST")));
        assertEquals("hello\n", Files.readString(first.resolve("output/stdout-0")));
        assertEquals(-1, store.highestEpoch());
        assertTrue(store.moveAside(List.of("output")).isEmpty());
        writeEpoch(store, 1);
        assertEquals(dir.resolve("previous-2"), store.moveAside(List.of()).orElseThrow());
    }
}

package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.fthp.checkpoint.store.CheckpointStore;
import org.fthp.checkpoint.store.JobIdentity;
import org.fthp.checkpoint.store.Manifest;
import org.fthp.checkpoint.store.PieceEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which epoch a new job resumes, from directories written by hand with the store (no job runs here). */
class CheckpointResumeTest {

    private static final JobIdentity JOB = JobIdentity.ofClass("org.example.Solver", List.of("10"), 2);

    @TempDir
    Path dir;

    private final ByteArrayOutputStream said = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);

    private static void commit(CheckpointStore store, long epoch) throws Exception {
        List<PieceEntry> pieces = List.of(store.writePiece(epoch, 0, ByteBuffer.wrap(new byte[] {1, 2})),
                store.writePiece(epoch, 1, ByteBuffer.wrap(new byte[] {3})));
        store.commit(new Manifest(epoch, 2, pieces));
    }

    @Test
    void anOlderFormatDirectoryIsRefusedUnlessForcedAndThenResumed() throws Exception {
        CheckpointStore old = CheckpointStore.open(dir);   // records no job: format 1
        commit(old, 3);
        LaunchException refused = assertThrows(LaunchException.class,
                () -> new CheckpointResume(dir, JOB, CheckpointPlan.RESUME_AUTO, err).decide(Optional.empty()));
        assertEquals(LaunchException.ENVIRONMENT, refused.exitCode());
        assertTrue(refused.getMessage().contains("--resume force resumes from them"), refused.getMessage());
        assertTrue(Files.notExists(dir.resolve(CheckpointResume.OUTPUT_DIR)), "a refused job changed the directory");

        ResumePoint forced = new CheckpointResume(dir, JOB, CheckpointPlan.RESUME_FORCE, err).decide(Optional.empty());
        assertEquals(new ResumePoint(3, 4, false), forced);
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("resuming from checkpoint epoch 3"), said.toString());
    }

    @Test
    void theSameJobResumesAboveEveryEpochThereAndAnEmptyDirectoryStartsFresh() throws Exception {
        assertEquals(ResumePoint.FRESH,
                new CheckpointResume(dir.resolve("empty"), JOB, CheckpointPlan.RESUME_AUTO, err)
                        .decide(Optional.empty()));
        CheckpointStore store = CheckpointStore.open(dir.resolve("mine"), Optional.of(JOB));
        commit(store, 1);
        commit(store, 2);
        store.writePiece(5, 0, ByteBuffer.wrap(new byte[] {9}));   // an epoch that never committed
        Path events = dir.resolve("events.jsonl");
        ResumePoint p = new CheckpointResume(dir.resolve("mine"), JOB, CheckpointPlan.RESUME_AUTO, err)
                .decide(Optional.of(events));
        assertEquals(new ResumePoint(2, 6, false), p);
        assertTrue(Files.readString(events).contains("\"event\":\"job-resumed\",\"epoch\":2,"), Files.readString(events));
    }
}

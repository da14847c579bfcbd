package org.fthp.replication.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.replication.error.MpiError;
import org.junit.jupiter.api.Test;

class DoublingOutcomeTest {

    private static final int BYTES = 8;

    @Test
    void aHealthyReductionSendsTheVectorAloneAndEndsQuietly() {
        DoublingOutcome outcome = new DoublingOutcome();
        MemorySegment buffer = Arena.ofAuto().allocate(DoublingOutcome.room(BYTES));
        assertEquals(BYTES, outcome.sendBytes(buffer, BYTES));
        DoublingOutcome.clear(buffer, BYTES);
        outcome.received(buffer, BYTES);
        assertTrue(outcome.healthy());
        outcome.end();
    }

    @Test
    void aFailedRankMarksItsMessagesAndThrowsItsOwnFailure() {
        DoublingOutcome outcome = new DoublingOutcome();
        MemorySegment buffer = Arena.ofAuto().allocate(DoublingOutcome.room(BYTES));
        RuntimeException own = new IllegalStateException("the operation failed");
        outcome.failed(own);
        outcome.failed(new IllegalStateException("a later one"));
        assertFalse(outcome.healthy());
        assertEquals(BYTES + 1, outcome.sendBytes(buffer, BYTES));
        assertTrue(DoublingOutcome.marked(buffer, BYTES));
        assertSame(own, assertThrows(IllegalStateException.class, outcome::end), "the first failure is thrown");
    }

    @Test
    void aMarkedMessageFailsTheReceiverWithAPeersFailure() {
        DoublingOutcome sender = new DoublingOutcome();
        DoublingOutcome receiver = new DoublingOutcome();
        MemorySegment message = Arena.ofAuto().allocate(DoublingOutcome.room(BYTES));
        sender.failed(new IllegalStateException("x"));
        sender.sendBytes(message, BYTES);
        receiver.received(message, BYTES);
        assertFalse(receiver.healthy());
        MpiError e = assertThrows(MpiError.class, receiver::end);
        assertEquals(MpiError.ERR_OTHER, e.errorClass());
        receiver.reset();
        assertTrue(receiver.healthy(), "an instance serves the next call afresh");
    }

    @Test
    void aTwinForwardsTheVectorOrANoteWithTheErrorsClassAndMessage() {
        MemorySegment acc = Arena.ofAuto().allocate(DoublingOutcome.room(BYTES));
        acc.set(ValueLayout.JAVA_LONG, 0, 42);
        DoublingOutcome outcome = new DoublingOutcome();
        assertEquals(BYTES, outcome.twinPayload(acc, BYTES).byteSize());

        outcome.failed(new MpiError(MpiError.ERR_TRUNCATE, "what the twin's call threw"));
        MemorySegment note = outcome.twinPayload(acc, BYTES);
        MemorySegment replica = Arena.ofAuto().allocate(FailureNote.room(BYTES));
        DoublingOutcome.clear(replica, BYTES);
        assertNull(FailureNote.failure(replica, BYTES), "nothing received yet reads as the vector");
        MemorySegment.copy(note, 0, replica, 0, note.byteSize());
        MpiError got = FailureNote.failure(replica, BYTES);
        assertEquals(MpiError.ERR_TRUNCATE, got.errorClass());
        assertEquals("what the twin's call threw", got.getMessage());
    }

    @Test
    void aLongMessageIsCutToFitTheReplicasRoom() {
        DoublingOutcome outcome = new DoublingOutcome();
        outcome.failed(new MpiError(MpiError.ERR_OTHER, "x".repeat(10_000)));
        MemorySegment note = outcome.twinPayload(Arena.ofAuto().allocate(DoublingOutcome.room(BYTES)), BYTES);
        assertTrue(note.byteSize() <= FailureNote.room(BYTES), note.byteSize() + " bytes");
        MemorySegment replica = Arena.ofAuto().allocate(FailureNote.room(BYTES));
        MemorySegment.copy(note, 0, replica, 0, note.byteSize());
        assertTrue(FailureNote.failure(replica, BYTES).getMessage().startsWith("xxxx"));
    }
}

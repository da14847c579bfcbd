package org.fthp.replication.ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import org.fthp.replication.error.ClassifiedError;
import org.fthp.replication.error.MpiError;

/**
 * What a twin forwards to its replica in place of a reduced vector of
 * {@code bytes} when the reduction failed ({@link DoublingOutcome}): the
 * vector's room left as it is, then the failure byte, the error's class, the
 * message's length and the message (UTF-8, at most {@link #TEXT_BYTES}).
 * The replica receives into {@link #room} bytes whose failure byte it cleared,
 * and throws what the note says.
 */
public final class FailureNote {

    /**
     * The most of an error's message a note carries, in UTF-8 bytes. Every replicated small allreduce stages
     * (and logs a copy of) this much room on the replica, for a note it almost never gets: kept small.
     */
    private static final int TEXT_BYTES = 256;
    /** From the end of the vector. */
    private static final long MARK_OFFSET = 0;
    private static final long CLASS_OFFSET = 1;
    private static final long LENGTH_OFFSET = 5;
    private static final long TEXT_OFFSET = 9;

    private FailureNote() {}

    /** Bytes a replica receives its twin's outcome into, for a vector of {@code bytes}: the vector, or a note. */
    public static int room(int bytes) {
        return (int) (bytes + TEXT_OFFSET + TEXT_BYTES);
    }

    /** A note of {@code failure} after a vector of {@code bytes}, in memory of its own (kept by the twin log). */
    static MemorySegment of(RuntimeException failure, int bytes) {
        int errorClass = failure instanceof ClassifiedError c ? c.errorClass() : MpiError.ERR_OTHER;
        String message = failure instanceof ClassifiedError c ? c.errorMessage() : failure.getMessage();
        byte[] text = String.valueOf(message).getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, TEXT_BYTES);
        MemorySegment note = Arena.ofAuto().allocate(bytes + TEXT_OFFSET + length);
        note.set(ValueLayout.JAVA_BYTE, bytes + MARK_OFFSET, FailureMark.MARKED);
        note.set(ValueLayout.JAVA_INT_UNALIGNED, bytes + CLASS_OFFSET, errorClass);
        note.set(ValueLayout.JAVA_INT_UNALIGNED, bytes + LENGTH_OFFSET, length);
        MemorySegment.copy(text, 0, note, ValueLayout.JAVA_BYTE, bytes + TEXT_OFFSET, length);
        return note;
    }

    /**
     * What a replica's call throws for the outcome its twin forwarded into {@code from} (its failure byte
     * cleared before the receive), or null when that outcome is the reduced vector.
     */
    public static MpiError failure(MemorySegment from, int bytes) {
        if (!FailureMark.marked(from, bytes)) {
            return null;
        }
        int errorClass = from.get(ValueLayout.JAVA_INT_UNALIGNED, bytes + CLASS_OFFSET);
        int length = from.get(ValueLayout.JAVA_INT_UNALIGNED, bytes + LENGTH_OFFSET);
        byte[] text = from.asSlice(bytes + TEXT_OFFSET, length).toArray(ValueLayout.JAVA_BYTE);
        return new MpiError(errorClass, new String(text, StandardCharsets.UTF_8));
    }
}

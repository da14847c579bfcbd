package org.fthp.replication.ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import org.fthp.replication.error.ClassifiedError;
import org.fthp.replication.error.MpiError;

/**
 * Whether a recursive-doubling allreduce has failed, here or at a peer, so that
 * every rank still runs its whole schedule and none waits for an exchange a
 * failed rank dropped. A program's operation may throw (a user function's
 * {@code MPIException} under {@code ERRORS_RETURN}), and it may do so on some
 * ranks only: a rank that stopped at its failure would leave its later
 * partners, and a folded-out rank waiting for its result, blocked for good.
 *
 * <p>So a failed rank goes on with the schedule, combining nothing more, and
 * sends its messages one byte longer than the vector, that byte set
 * ({@link #MARKED}). Every receive has room for that byte and clears it
 * first: a rank that finds it set has a failed peer, and fails the same way.
 * At the end each rank throws its own operation's exception, or one saying a
 * peer's failed.
 *
 * <p>A replica does not reduce; its twin forwards the result, or after a
 * failure a note ({@link #twinPayload}): the failure byte, then the error's
 * class and message, so the replica's call throws what its twin's threw.
 */
public final class DoublingOutcome {

    /** The byte after the vector in a failed rank's messages. */
    public static final byte MARKED = 1;
    /** The most of an error's message a twin's note carries, in UTF-8 bytes. */
    private static final int NOTE_TEXT_BYTES = 1024;
    /** After the failure byte, a twin's note: the error class, the message's length, then the message. */
    private static final long NOTE_CLASS = 1;
    private static final long NOTE_LENGTH = 5;
    private static final long NOTE_TEXT = 9;

    private RuntimeException thrown;
    private boolean peerFailed;

    /** Room a buffer of the schedule needs for a vector of {@code bytes}: the vector and the failure byte. */
    public static int room(int bytes) {
        return bytes + 1;
    }

    /** Forgets the last reduction's outcome (an instance serving one call after another). */
    public void reset() {
        thrown = null;
        peerFailed = false;
    }

    /** Whether this rank still combines: neither its operation nor a peer's has failed. */
    public boolean healthy() {
        return thrown == null && !peerFailed;
    }

    /** This rank's operation threw {@code e}. */
    public void failed(RuntimeException e) {
        if (thrown == null) {
            thrown = e;
        }
    }

    /** Clears the failure byte of a receive buffer for a vector of {@code bytes} (its room is {@link #room}). */
    public static void clear(MemorySegment into, int bytes) {
        into.set(ValueLayout.JAVA_BYTE, bytes, (byte) 0);
    }

    /** Whether a message received into {@code from} (cleared first) came from a failed rank. */
    public static boolean marked(MemorySegment from, int bytes) {
        return from.get(ValueLayout.JAVA_BYTE, bytes) == MARKED;
    }

    /** Notes what a completed receive into {@code from} says about its sender. */
    public void received(MemorySegment from, int bytes) {
        if (marked(from, bytes)) {
            peerFailed = true;
        }
    }

    /**
     * How many bytes of {@code from} to send: the vector, or once the reduction has failed, the vector and
     * the failure byte (set here).
     */
    public int sendBytes(MemorySegment from, int bytes) {
        if (healthy()) {
            return bytes;
        }
        from.set(ValueLayout.JAVA_BYTE, bytes, MARKED);
        return bytes + 1;
    }

    /** At the end of the schedule: throws this rank's failure, or a peer's; returns when the reduction succeeded. */
    public void end() {
        if (thrown != null) {
            throw thrown;
        }
        if (peerFailed) {
            throw peerFailure();
        }
    }

    /** What a rank throws whose reduction failed at a peer. */
    private static MpiError peerFailure() {
        return new MpiError(MpiError.ERR_OTHER, "allreduce: the reduction's operation failed on another process");
    }

    /** Room a replica receives its twin's outcome into, for a vector of {@code bytes}: the vector, or a note. */
    public static int twinRoom(int bytes) {
        return (int) (bytes + NOTE_TEXT + NOTE_TEXT_BYTES);
    }

    /**
     * What the twin forwards to its replica once the schedule is done: the vector in {@code acc}, or the
     * failure byte after it and the error's class and message.
     */
    public MemorySegment twinPayload(MemorySegment acc, int bytes) {
        if (healthy()) {
            return acc.asSlice(0, bytes);
        }
        RuntimeException e = thrown != null ? thrown : peerFailure();
        int errorClass = e instanceof ClassifiedError c ? c.errorClass() : MpiError.ERR_OTHER;
        String message = e instanceof ClassifiedError c ? c.errorMessage() : String.valueOf(e.getMessage());
        byte[] text = String.valueOf(message).getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, NOTE_TEXT_BYTES);
        // a rare path: its own memory, kept by the twin log until the replica has it
        MemorySegment note = Arena.ofAuto().allocate(bytes + NOTE_TEXT + length);
        note.set(ValueLayout.JAVA_BYTE, bytes, MARKED);
        note.set(ValueLayout.JAVA_INT_UNALIGNED, bytes + NOTE_CLASS, errorClass);
        note.set(ValueLayout.JAVA_INT_UNALIGNED, bytes + NOTE_LENGTH, length);
        MemorySegment.copy(text, 0, note, ValueLayout.JAVA_BYTE, bytes + NOTE_TEXT, length);
        return note;
    }

    /**
     * What a replica's call throws for the outcome its twin forwarded into {@code from} (cleared first, its
     * room {@link #twinRoom}), or null when it is the reduced vector.
     */
    public static MpiError twinFailure(MemorySegment from, int bytes) {
        if (!marked(from, bytes)) {
            return null;
        }
        int errorClass = from.get(ValueLayout.JAVA_INT_UNALIGNED, bytes + NOTE_CLASS);
        int length = from.get(ValueLayout.JAVA_INT_UNALIGNED, bytes + NOTE_LENGTH);
        byte[] text = from.asSlice(bytes + NOTE_TEXT, length).toArray(ValueLayout.JAVA_BYTE);
        return new MpiError(errorClass, new String(text, StandardCharsets.UTF_8));
    }
}

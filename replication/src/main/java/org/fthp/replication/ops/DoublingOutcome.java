package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
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
 * ({@link FailureMark}). Every receive has room for that byte and clears it
 * first: a rank that finds it set has a failed peer, and fails the same way.
 * At the end each rank throws its own operation's exception, or one saying a
 * peer's failed.
 *
 * <p>A replica does not reduce; its twin forwards the result, or after a
 * failure a {@link FailureNote} with the error's class and message, so the
 * replica's call throws what its twin's threw.
 */
public final class DoublingOutcome {

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
        return FailureMark.marked(from, bytes);
    }

    /** Notes what a completed receive into {@code from} says about its sender. */
    public void received(MemorySegment from, int bytes) {
        if (marked(from, bytes)) {
            peerFailed = true;
        }
    }

    /**
     * Posts the receive of a vector of {@code bytes} from {@code peer} into {@code into}: with room for the
     * failure byte, which it clears first.
     */
    public static void receive(MemorySegment into, int bytes, int peer, int tag, long comm, MemorySegment request) {
        clear(into, bytes);
        Empi.irecv(into, room(bytes), Empi.BYTE, peer, tag, comm, request);
    }

    /** Sends the vector in {@code from} to {@code peer}, with the failure byte once the reduction has failed. */
    public void send(MemorySegment from, int bytes, int peer, int tag, long comm, MemorySegment request) {
        Empi.isend(from, sendBytes(from, bytes), Empi.BYTE, peer, tag, comm, request);
    }

    /**
     * How many bytes of {@code from} to send: the vector, or once the reduction has failed, the vector and
     * the failure byte (set here).
     */
    int sendBytes(MemorySegment from, int bytes) {
        if (healthy()) {
            return bytes;
        }
        from.set(ValueLayout.JAVA_BYTE, bytes, FailureMark.MARKED);
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

    /** What the twin forwards to its replica once the schedule is done: the vector in {@code acc}, or a note. */
    public MemorySegment twinPayload(MemorySegment acc, int bytes) {
        if (healthy()) {
            return acc.asSlice(0, bytes);
        }
        return FailureNote.of(thrown != null ? thrown : peerFailure(), bytes);
    }
}

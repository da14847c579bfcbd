package org.fthp.replication.staging;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.fthp.msglog.RetainedMessage;

/**
 * One large message packed once (header, then payload) into off-heap memory
 * ({@link MessageMemory}) that is at the same time its send-log entry and what each of its
 * native sends reads (to a copy of the destination, to its replica, a resend
 * after a repair). Reference-counted: whoever creates it holds the first
 * reference, every holder gives its own back with {@link #release}, and the
 * memory is reused after the last. A send that a repair abandons
 * keeps its reference forever (its native request may still read the
 * bytes), so that memory is never reused nor freed before the process ends
 * (its arena is closed only by a last release).
 *
 * <p>The count is atomic: the program's thread logs and sends, a repair's
 * thread may resend and trim.
 */
public final class SharedMessage implements RetainedMessage {

    private static final VarHandle REFERENCES;

    static {
        try {
            REFERENCES = MethodHandles.lookup().findVarHandle(SharedMessage.class, "references", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MessageMemory memory;
    /** Its size class's block, given back whole. */
    private final MessageMemory.Block block;
    private final MemorySegment message;
    @SuppressWarnings("unused")   // through REFERENCES
    private volatile int references = 1;

    private SharedMessage(MessageMemory memory, MessageMemory.Block block, long bytes) {
        this.memory = memory;
        this.block = block;
        this.message = block.segment().asSlice(0, bytes);
    }

    /** A message of {@code bytes} bytes, its one reference held by the caller. */
    public static SharedMessage allocate(MessageMemory memory, long bytes) {
        return new SharedMessage(memory, memory.acquire(bytes), bytes);
    }

    /** Header and payload, exactly the message's length. */
    public MemorySegment message() {
        return message;
    }

    /** Another reference, for a new holder; only a holder may call it (the bytes are still there). */
    public SharedMessage retain() {
        int before = (int) REFERENCES.getAndAdd(this, 1);
        if (before <= 0) {
            throw new IllegalStateException("message memory retained after its last release");
        }
        return this;
    }

    @Override
    public void release() {
        int after = (int) REFERENCES.getAndAdd(this, -1) - 1;
        if (after == 0) {
            memory.release(block);
        } else if (after < 0) {
            throw new IllegalStateException("message memory released more often than retained");
        }
    }
}

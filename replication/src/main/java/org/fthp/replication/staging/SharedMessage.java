package org.fthp.replication.staging;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.fthp.msglog.RetainedMessage;

/**
 * One large message packed once (header, then payload) into off-heap memory
 * that is at the same time its send-log entry and what each of its sends
 * reads (to a copy of the destination, to its replica, a resend after a
 * repair). That memory is a block of this process's {@link PullMemory} when
 * the message's receivers on this node may copy the payload from it
 * themselves ({@link #allocate(PullMemory, long)}), else of
 * {@link MessageMemory}. Reference-counted: whoever creates it holds the first
 * reference, every holder gives its own back with {@link #release}, and the
 * memory is reused after the last. A send that a repair abandons
 * keeps its reference forever (its native request, or a receiver copying
 * from the pull memory, may still read the bytes), so that memory is never
 * reused nor freed before the process ends (its block goes back only on a
 * last release).
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

    /** Where the block came from, and the block (its size class's, given back whole): one pair or the other. */
    private final MessageMemory memory;
    private final MessageMemory.Block block;
    private final PullMemory pullMemory;
    private final PullMemory.Block pullBlock;
    private final MemorySegment message;
    @SuppressWarnings("unused")   // through REFERENCES
    private volatile int references = 1;

    private SharedMessage(MessageMemory memory, MessageMemory.Block block, PullMemory pullMemory,
                          PullMemory.Block pullBlock, MemorySegment segment, long bytes) {
        this.memory = memory;
        this.block = block;
        this.pullMemory = pullMemory;
        this.pullBlock = pullBlock;
        this.message = segment.asSlice(0, bytes);
    }

    /** A message of {@code bytes} bytes, its one reference held by the caller. */
    public static SharedMessage allocate(MessageMemory memory, long bytes) {
        MessageMemory.Block b = memory.acquire(bytes);
        return new SharedMessage(memory, b, null, null, b.segment(), bytes);
    }

    /**
     * A message of {@code bytes} bytes in {@code memory}, which receivers on this node can read, its one
     * reference held by the caller; null when that memory has no room left.
     */
    public static SharedMessage allocate(PullMemory memory, long bytes) {
        PullMemory.Block b = memory.acquire(bytes);
        return b == null ? null : new SharedMessage(null, null, memory, b, b.segment(), bytes);
    }

    /** Header and payload, exactly the message's length. */
    public MemorySegment message() {
        return message;
    }

    /**
     * Writes where {@code length} bytes from {@code offset} of the message are, for a receiver to copy them;
     * only for a message in pull memory (see {@link #pullable}).
     */
    public void describe(MemorySegment descriptor, long offset, long length) {
        pullMemory.describe(descriptor, pullBlock, offset, length);
    }

    /** Whether its memory is {@link PullMemory}, which receivers on this node can read. */
    public boolean pullable() {
        return pullBlock != null;
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
            if (pullBlock != null) {
                pullMemory.release(pullBlock);
            } else {
                memory.release(block);
            }
        } else if (after < 0) {
            throw new IllegalStateException("message memory released more often than retained");
        }
    }
}
